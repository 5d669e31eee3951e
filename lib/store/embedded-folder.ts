/**
 * The embedded database's folder, judged before PGlite touches it: created when missing, one
 * level at a time, and refused with one clear EmbeddedFolderError when it is a file, cannot be
 * created (/proc/x), or cannot be written. A folder that cannot be written can still be read
 * through a copy (openReadOnlyCopy), for commands that only read.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, type Stats } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { BacktrackError } from "../journal/errors";
import { migrateEmbedded } from "./migrate";
import { PGliteClient } from "./sql-client";

/**
 * The embedded folder cannot be used. Its code is database_unreachable, like a server that cannot
 * be reached: the CLI exits 2, the inspector answers 503 and shows what to check.
 */
export class EmbeddedFolderError extends BacktrackError {
  constructor(
    readonly folder: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super("database_unreachable", `cannot open the embedded database in ${folder}: ${reason}`, options);
  }
}

const errnoCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;

/** The OS refuses writes here: a read-only mount, or a folder of another user. */
export function isReadOnlyError(error: unknown): boolean {
  return ["EROFS", "EACCES", "EPERM"].includes(errnoCode(error) ?? "");
}

export function describeErrno(error: unknown): string {
  const code = errnoCode(error);
  if (code === "EROFS") return "it is on a read-only file system";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "ENOSPC") return "no space left on the device";
  return (error as Error).message;
}

/** Wraps an OS error met while using `folder` (other errors pass unchanged). */
export function folderError(folder: string, error: unknown, doing: string): unknown {
  if (error instanceof BacktrackError || !errnoCode(error)) return error;
  return new EmbeddedFolderError(folder, `cannot ${doing} (${describeErrno(error)})`, { cause: error });
}

function statOrMissing(path: string): Stats | "missing" {
  try {
    return statSync(path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    throw error;
  }
}

/**
 * Makes sure `folder` is a folder, creating it and its missing parents. Not mkdirSync's
 * `recursive`: it loops forever where mkdir answers ENOENT under an existing parent (/proc/x).
 */
export function prepareFolder(folder: string): void {
  const missing: string[] = [];
  let current = folder;
  for (;;) {
    let found: Stats | "missing";
    try {
      found = statOrMissing(current);
    } catch (error) {
      throw folderError(folder, error, `look at ${current}`);
    }
    if (found !== "missing") {
      if (!found.isDirectory()) {
        throw new EmbeddedFolderError(folder, current === folder ? "it is a file, not a folder" : `${current} is a file, not a folder`);
      }
      break;
    }
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const path of missing) {
    try {
      mkdirSync(path);
    } catch (error) {
      if (errnoCode(error) !== "EEXIST") throw folderError(folder, error, `create ${path}`);
    }
  }
}

/**
 * Opens a private copy of the folder's data, for reading a folder this process cannot write
 * (PGlite writes to its data folder even to read). Writes go to the copy and are discarded on close.
 */
export async function openReadOnlyCopy(folder: string, why: unknown): Promise<PGliteClient> {
  const data = join(folder, "pgdata");
  if (!existsSync(join(data, "PG_VERSION"))) {
    throw new EmbeddedFolderError(folder, `it cannot be written (${describeErrno(why)}) and holds no database yet`, { cause: why });
  }
  const copy = mkdtempSync(join(tmpdir(), "backtrack-read-only-"));
  const remove = () => rmSync(copy, { recursive: true, force: true });
  try {
    cpSync(data, join(copy, "pgdata"), { recursive: true });
    const db = new PGlite(join(copy, "pgdata"), { extensions: { pg_trgm } });
    await db.waitReady;
    // A folder written by an older version: the copy is brought up to date, the folder is not touched.
    await migrateEmbedded(db);
    return new PGliteClient(db, `${folder} (read-only: a copy)`, async () => {
      await db.close();
      remove();
    });
  } catch (error) {
    remove();
    throw folderError(folder, error, "read it");
  }
}

/** Why a command that writes cannot use a folder it cannot write. */
export function readOnlyRefusal(folder: string, why: unknown): EmbeddedFolderError {
  return new EmbeddedFolderError(folder, `it cannot be written (${describeErrno(why)}); commands that only read (runs, show, events, mermaid) can use it, this one cannot`, {
    cause: why,
  });
}
