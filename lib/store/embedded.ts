/**
 * Opens an embedded (PGlite) database folder. The folder holds `pgdata/` and `owner.json`.
 * - No owner: this process becomes it (opens PGlite, migrates, serves other processes on loopback).
 * - A live owner: this process becomes its client (RemoteEmbeddedClient); it never opens the data.
 * - A dead owner (a crash): its lock is removed and this process takes over, also when the owner
 *   dies while this process is its client (embedded-failover.ts).
 * - A folder this process cannot write: a live owner still serves it; otherwise, when the caller
 *   only reads (readOnlyCopy), a copy of it is opened; otherwise one clear error.
 * Within one process every open of a folder shares one PGlite, also across bundles (a global registry).
 */
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { DatabaseLockedError, isBacktrackError } from "../journal/errors";
import { EmbeddedFolderError, folderError, isReadOnlyError, openReadOnlyCopy, prepareFolder, readOnlyRefusal } from "./embedded-folder";
import { processAlive, publishLock, readLock, releaseLock, removeStaleLock, tryCreateLock, type LockState, type OwnerInfo } from "./embedded-lock";
import { startOwnerServer } from "./embedded-owner";
import { FailoverClient } from "./embedded-failover";
import { RemoteEmbeddedClient } from "./embedded-remote";
import { migrateEmbedded } from "./migrate";
import { PGliteClient, type SqlClient } from "./sql-client";

/** How long to wait for an owner that is starting or busy before giving up (BACKTRACK_OWNER_WAIT_MS). */
const waitForOwnerMs = () => Number(process.env.BACKTRACK_OWNER_WAIT_MS ?? 15_000);
const HALF_WRITTEN_LOCK_MS = 5_000;

interface Shared {
  client: Promise<PGliteClient>;
  users: number;
}

const REGISTRY = Symbol.for("backtrack.embedded.registry");
type GlobalWithRegistry = typeof globalThis & { [REGISTRY]?: Map<string, Shared> };

function registry(): Map<string, Shared> {
  const holder = globalThis as GlobalWithRegistry;
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

export interface EmbeddedOptions {
  /** Refuse to use another process's database (become its client); fail instead. */
  ownerOnly?: boolean;
  /** The caller only reads: a folder this process cannot write is read through a copy of it. */
  readOnlyCopy?: boolean;
}

export async function openEmbedded(folderPath: string, options: EmbeddedOptions = {}): Promise<SqlClient> {
  const folder = resolve(folderPath);
  const client = await openFolder(folder, options);
  // Through another process: when that owner dies, take the folder over as a new process would.
  return client instanceof RemoteEmbeddedClient ? new FailoverClient(client, () => openFolder(folder, options)) : client;
}

async function openFolder(folder: string, options: EmbeddedOptions): Promise<SqlClient> {
  const shared = registry().get(folder);
  if (shared) {
    shared.users += 1;
    return handle(folder, await shared.client);
  }
  prepareFolder(folder);
  const deadline = Date.now() + waitForOwnerMs();
  for (;;) {
    let created: OwnerInfo | null;
    try {
      created = tryCreateLock(folder);
    } catch (error) {
      if (isReadOnlyError(error)) return openUnwritable(folder, options, error);
      throw folderError(folder, error, "write its owner lock");
    }
    if (created) return becomeOwner(folder, created);
    const lock = readLockOf(folder);
    if (lock.state === "held") {
      const { info } = lock;
      if (info.pid === process.pid || !processAlive(info.pid)) {
        try {
          removeStaleLock(folder, info);
        } catch (error) {
          if (isReadOnlyError(error)) return openUnwritable(folder, options, error);
          throw folderError(folder, error, "remove the lock of a process that is gone");
        }
        continue;
      }
      if (info.port !== null) {
        if (options.ownerOnly) {
          throw new DatabaseLockedError(folder, info.pid, `the embedded database in ${folder} is held by process ${info.pid}`);
        }
        const client = new RemoteEmbeddedClient({ ...info, port: info.port }, `${folder} (through process ${info.pid})`, folder);
        if (await client.health(2_000)) return client;
      }
    } else if (lock.state === "unreadable" && lock.ageMs > HALF_WRITTEN_LOCK_MS) {
      removeStaleLock(folder, null);
      continue;
    }
    if (Date.now() > deadline) {
      const pid = lock.state === "held" ? lock.info.pid : undefined;
      throw new DatabaseLockedError(
        folder,
        pid,
        `the embedded database in ${folder} is held by process ${pid ?? "unknown"}, which does not answer; ` +
          `stop that process or remove ${join(folder, "owner.json")} if it is gone`,
      );
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

function readLockOf(folder: string): LockState {
  try {
    return readLock(folder);
  } catch (error) {
    throw folderError(folder, error, "read its owner lock");
  }
}

/** A folder this process cannot write: through its live owner, or a read-only copy, or a clear refusal. */
async function openUnwritable(folder: string, options: EmbeddedOptions, why: unknown): Promise<SqlClient> {
  const lock = readLockOf(folder);
  if (!options.ownerOnly && lock.state === "held" && lock.info.port !== null && processAlive(lock.info.pid)) {
    const client = new RemoteEmbeddedClient({ ...lock.info, port: lock.info.port }, `${folder} (through process ${lock.info.pid})`, folder);
    if (await client.health(2_000)) return client;
  }
  if (!options.readOnlyCopy) throw readOnlyRefusal(folder, why);
  return openReadOnlyCopy(folder, why);
}

async function becomeOwner(folder: string, lock: OwnerInfo): Promise<SqlClient> {
  const shared: Shared = { client: openOwned(folder, lock), users: 1 };
  registry().set(folder, shared);
  try {
    return handle(folder, await shared.client);
  } catch (error) {
    // Never cache a failed start: the next open tries again.
    registry().delete(folder);
    releaseLock(folder, lock.token);
    throw error instanceof Error && !isBacktrackError(error) ? new EmbeddedFolderError(folder, `PGlite could not open it: ${error.message}`, { cause: error }) : error;
  }
}

async function openOwned(folder: string, lock: OwnerInfo): Promise<PGliteClient> {
  // pg_trgm backs the indexed search of the runs list (drizzle/0001_inspector_search.sql).
  const db = new PGlite(join(folder, "pgdata"), { extensions: { pg_trgm } });
  await db.waitReady;
  await migrateEmbedded(db);
  const server = await startOwnerServer(db, lock.token);
  publishLock(folder, { ...lock, port: server.port });
  const release = () => releaseLock(folder, lock.token);
  process.once("exit", release);
  return new PGliteClient(db, folder, async () => {
    process.removeListener("exit", release);
    await server.close();
    await db.close();
    release();
  });
}

/** A per-user view of the shared client: the database closes when its last user closes. */
function handle(folder: string, client: PGliteClient): SqlClient {
  let closed = false;
  return {
    kind: client.kind,
    target: client.target,
    query: (text, params) => client.query(text, params),
    queryArrays: (text, params) => client.queryArrays(text, params),
    exec: (text) => client.exec(text),
    listen: (channel, onMessage) => client.listen(channel, onMessage),
    async close() {
      if (closed) return;
      closed = true;
      const shared = registry().get(folder);
      if (!shared) return;
      shared.users -= 1;
      if (shared.users > 0) return;
      registry().delete(folder);
      await client.close();
    },
  };
}
