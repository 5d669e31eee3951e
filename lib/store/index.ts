/** The store: open a Journal over the configured database. Server-side code only. */
import type { JournalOptions } from "../journal/base";
import { openDatabase, resolveDatabase, type OpenOptions } from "./connection";
import { PostgresStore } from "./postgres-store";

export { openDatabase, resolveDatabase, redact, DEFAULT_EMBEDDED_FOLDER, type DatabaseTarget, type OpenOptions } from "./connection";
export { PostgresStore, parseNotification } from "./postgres-store";
export { JOURNAL_CHANNEL } from "./append-sql";
export { drizzleOver, type Database } from "./drizzle";
export type { SqlClient, DatabaseKind } from "./sql-client";
export { migrationsFolder } from "./migrate";
export * as schema from "./schema/index";

export interface StoreOptions extends OpenOptions, JournalOptions {
  /** `postgres://…` or `pglite:PATH`; DATABASE_URL, then `.backtrack/`, when absent. */
  url?: string | null;
}

/** Opens the database named by `url` (or DATABASE_URL, or the embedded default) as a PostgresStore. */
export async function openStore(options: StoreOptions = {}): Promise<PostgresStore> {
  const client = await openDatabase(resolveDatabase(options.url), options);
  return new PostgresStore(client, options);
}
