/**
 * Databases for tests: the run's server database, fresh server databases for tests that need an
 * empty one, and embedded PGlite folders. Every store here is real: MemStore, PGlite, the server.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { inject } from "vitest";
import { MemStore } from "@/lib/journal/memory-store";
import type { Journal } from "@/lib/journal/ports";
import { openStore, type StoreOptions } from "@/lib/store";

export function serverUrl(): string {
  return inject("serverUrl");
}

let counter = 0;

/**
 * A new database on the test server; drop() removes it. It is a clone of the run's migrated
 * template (global-setup.ts), so opening a store on it skips the migrations; `{ empty: true }`
 * gives a database with no tables, for the tests of migrating one (tests/store/server.test.ts,
 * tests/fleet/fleet.test.ts).
 */
export async function freshServerDatabase(options: { empty?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = postgres(inject("serverAdminUrl"), { max: 1, onnotice: () => undefined });
  const name = `backtrack_t_${process.pid}_${Date.now().toString(36)}_${(counter += 1)}`;
  await admin.unsafe(options.empty ? `create database ${name}` : `create database ${name} template ${inject("serverTemplate")}`);
  await admin.end();
  const url = new URL(inject("serverAdminUrl"));
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = postgres(inject("serverAdminUrl"), { max: 1, onnotice: () => undefined });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/** A temporary folder, removed by the returned function. */
export function tempFolder(prefix = "backtrack-test-"): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * A temporary folder holding an empty, migrated embedded database: a copy of the run's template
 * (global-setup.ts), so a test skips PGlite's initdb and the migrations. Opening it is a real
 * PGlite open; tests of a brand-new folder (the owner lock, first migration) use tempFolder().
 */
export function embeddedFolder(prefix = "backtrack-test-"): { path: string; url: string; remove: () => void } {
  const folder = tempFolder(prefix);
  cpSync(join(inject("embeddedTemplate"), "pgdata"), join(folder.path, "pgdata"), { recursive: true });
  return { ...folder, url: `pglite:${folder.path}` };
}

export interface StoreKind {
  name: "memory" | "pglite" | "server";
  /** Opens a store over an empty database (server: a fresh clone of the migrated template). */
  open(options?: Omit<StoreOptions, "url">): Promise<Journal & { close(): Promise<void> }>;
}

export const STORE_KINDS: StoreKind[] = [
  { name: "memory", open: async (options) => new MemStore(options) },
  {
    name: "pglite",
    open: async (options) => {
      const folder = embeddedFolder();
      const store = await openStore({ ...options, url: folder.url });
      const close = store.close.bind(store);
      store.close = async () => {
        await close();
        folder.remove();
      };
      return store;
    },
  },
  {
    name: "server",
    open: async (options) => {
      const database = await freshServerDatabase();
      const store = await openStore({ ...options, url: database.url });
      const close = store.close.bind(store);
      store.close = async () => {
        await close();
        await database.drop();
      };
      return store;
    },
  },
];
