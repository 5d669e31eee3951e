/**
 * The owner lock of an embedded database folder. PGlite keeps its data in one process's memory
 * and flushes it to the folder: two processes opening one folder silently lose or corrupt data.
 * So one process owns a folder; it writes `owner.json` (pid, loopback port, token) and other
 * processes reach the database through it (embedded-remote.ts) instead of opening it.
 */
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

export interface OwnerInfo {
  pid: number;
  /** null while the owner is still opening the database. */
  port: number | null;
  token: string;
  startedAt: string;
}

export const lockPath = (folder: string): string => join(folder, "owner.json");

/** Creates the lock exclusively; returns null when another process holds it. */
export function tryCreateLock(folder: string): OwnerInfo | null {
  const info: OwnerInfo = {
    pid: process.pid,
    port: null,
    token: randomBytes(24).toString("base64url"),
    startedAt: new Date().toISOString(),
  };
  let fd: number;
  try {
    fd = openSync(lockPath(folder), "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return null;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(info));
  } finally {
    closeSync(fd);
  }
  return info;
}

/** Publishes the owner's port: written to a temporary file and renamed, so readers never see half of it. */
export function publishLock(folder: string, info: OwnerInfo): void {
  const temporary = `${lockPath(folder)}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(info), { mode: 0o600 });
  renameSync(temporary, lockPath(folder));
}

export type LockState = { state: "held"; info: OwnerInfo } | { state: "unreadable"; ageMs: number } | { state: "absent" };

export function readLock(folder: string): LockState {
  let text: string;
  let ageMs: number;
  try {
    text = readFileSync(lockPath(folder), "utf8");
    ageMs = Date.now() - statSync(lockPath(folder)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "absent" };
    throw error;
  }
  try {
    const info = JSON.parse(text) as OwnerInfo;
    if (typeof info.pid === "number" && typeof info.token === "string") return { state: "held", info };
  } catch {
    // A lock being written right now, or left half-written by a crash: the caller waits, then judges by age.
  }
  return { state: "unreadable", ageMs };
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes a lock whose owner is gone, unless it changed since it was judged stale. */
export function removeStaleLock(folder: string, judged: OwnerInfo | null): void {
  const now = readLock(folder);
  const same = judged === null ? now.state === "unreadable" : now.state === "held" && now.info.token === judged.token;
  if (!same) return;
  try {
    unlinkSync(lockPath(folder));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Removes our own lock (on close and at process exit). */
export function releaseLock(folder: string, token: string): void {
  const now = readLock(folder);
  if (now.state === "held" && now.info.token === token) {
    try {
      unlinkSync(lockPath(folder));
    } catch {
      // Already gone: nothing to release.
    }
  }
}
