/**
 * Drizzle over any SqlClient, through drizzle's proxy driver: one query builder for the server,
 * embedded PGlite and an embedded database reached through its owner.
 */
import { drizzle, type PgRemoteDatabase } from "drizzle-orm/pg-proxy";
import * as schema from "./schema/index";
import type { SqlClient } from "./sql-client";

export type Database = PgRemoteDatabase<typeof schema>;

export function drizzleOver(client: SqlClient): Database {
  return drizzle(
    async (text, params, method) => {
      if (method === "all") return { rows: await client.queryArrays(text, params) };
      return { rows: await client.query(text, params) };
    },
    { schema },
  );
}
