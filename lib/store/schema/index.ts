/**
 * The database schema, one for PGlite and the server, one file per area. drizzle-kit generates
 * the SQL migrations in drizzle/ from these files (`npm run db:generate -- --name <change>`);
 * never edit a generated migration by hand. Keep to what PostgreSQL 15 runs (PGlite is 18).
 */
export * from "./journal";
export * from "./jobs";
export * from "./sessions";
export * from "./recovery";
export * from "./regression";
export * from "./otel";
export * from "./suites";
