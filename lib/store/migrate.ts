/**
 * Applies the drizzle-kit migrations in drizzle/ (committed, generated from schema.ts). Runs on
 * every open of a database this process owns, and by `backtrack migrate`. On a server, an advisory
 * lock makes concurrent migrators (several processes starting at once) take turns.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres, { type Sql } from "postgres";
import { ConfigError } from "../journal/errors";

const MIGRATION_LOCK = 7_215_530_412; // an arbitrary constant naming Backtrack's advisory lock

/** Finds drizzle/ by walking up from this module (source, dist or a bundle), then from the cwd. */
export function migrationsFolder(): string {
  const fromEnv = process.env.BACKTRACK_MIGRATIONS;
  if (fromEnv) return resolve(fromEnv);
  const starts: string[] = [process.cwd()];
  try {
    starts.unshift(dirname(fileURLToPath(import.meta.url)));
  } catch {
    // Bundled without a file URL: the working directory is the fallback.
  }
  for (const start of starts) {
    let folder = start;
    for (;;) {
      if (existsSync(join(folder, "drizzle", "meta", "_journal.json"))) return join(folder, "drizzle");
      const parent = dirname(folder);
      if (parent === folder) break;
      folder = parent;
    }
  }
  throw new ConfigError("cannot find the migrations folder drizzle/; set BACKTRACK_MIGRATIONS to its path");
}

/** Migrates over one dedicated connection, so that the advisory lock and the migration share a session. */
export async function migrateServer(url: string): Promise<void> {
  const folder = migrationsFolder();
  const connection: Sql = postgres(url, { max: 1, onnotice: () => undefined, connect_timeout: 10 });
  try {
    await connection`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres(connection), { migrationsFolder: folder });
    await connection`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await connection.end({ timeout: 5 });
  }
}

export async function migrateEmbedded(db: PGlite): Promise<void> {
  await migratePglite(drizzlePglite(db), { migrationsFolder: migrationsFolder() });
}
