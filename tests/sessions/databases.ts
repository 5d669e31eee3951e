/**
 * The two real databases the session service runs on, for tests: an embedded PGlite folder and a
 * fresh database on the PostgreSQL server. `reopen` closes the connection and opens a new one on
 * the same data (a PGlite restart), for tests that read back what an earlier connection wrote.
 */
import { openDatabase, resolveDatabase, type SqlClient } from "@/lib/store";
import { SessionService } from "@/lib/sessions";
import { embeddedFolder, freshServerDatabase } from "../helpers/databases";

export interface SessionDatabase {
  url: string;
  client: SqlClient;
  service: SessionService;
  /** Closes the current connection and opens another on the same data. */
  reopen(): Promise<SessionService>;
  /** Closes the connection without removing the data (a child process may then own it). */
  release(): Promise<void>;
  close(): Promise<void>;
}

export interface SessionDatabaseKind {
  name: "pglite" | "server";
  /** An empty database nobody has open yet: its URL, and how to remove it. */
  fresh(): Promise<{ url: string; remove: () => Promise<void> | void }>;
  open(options?: { poolSize?: number }): Promise<SessionDatabase>;
}

async function over(url: string, remove: () => Promise<void> | void, poolSize?: number): Promise<SessionDatabase> {
  const database: SessionDatabase = {
    url,
    client: await openDatabase(resolveDatabase(url), { poolSize }),
    service: undefined as unknown as SessionService,
    async reopen() {
      await database.client.close();
      database.client = await openDatabase(resolveDatabase(url), { poolSize });
      database.service = new SessionService(database.client);
      return database.service;
    },
    async release() {
      await database.client.close();
    },
    async close() {
      await database.client.close();
      await remove();
    },
  };
  database.service = new SessionService(database.client);
  return database;
}

export const SESSION_DATABASES: SessionDatabaseKind[] = [
  {
    name: "pglite",
    fresh: async () => {
      const folder = embeddedFolder("backtrack-sessions-");
      return { url: folder.url, remove: folder.remove };
    },
    async open() {
      const { url, remove } = await this.fresh();
      return over(url, remove);
    },
  },
  {
    name: "server",
    fresh: async () => {
      const database = await freshServerDatabase();
      return { url: database.url, remove: database.drop };
    },
    async open(options) {
      const { url, remove } = await this.fresh();
      return over(url, remove, options?.poolSize);
    },
  },
];
