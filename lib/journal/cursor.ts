/** Keyset cursors for run lists: the (startedAt, runId) of the last row of a page, opaque to callers. */
import { BadInputError } from "./errors";

interface RunCursor {
  startedAt: string;
  runId: string;
}

export function encodeCursor(cursor: RunCursor): string {
  return Buffer.from(JSON.stringify([cursor.startedAt, cursor.runId]), "utf8").toString("base64url");
}

export function decodeCursor(text: string): RunCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (Array.isArray(value) && typeof value[0] === "string" && typeof value[1] === "string") {
      if (Number.isNaN(Date.parse(value[0]))) throw new Error("bad time");
      return { startedAt: value[0], runId: value[1] };
    }
  } catch (error) {
    throw new BadInputError(`malformed cursor "${text.slice(0, 40)}"`, { cause: error });
  }
  throw new BadInputError(`malformed cursor "${text.slice(0, 40)}"`);
}

export const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 500;

export function pageSize(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1) throw new BadInputError(`limit must be a positive integer, got ${limit}`);
  return Math.min(limit, MAX_PAGE_SIZE);
}
