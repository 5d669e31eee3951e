/**
 * Keyset cursors for run lists, opaque to callers: the (startedAt, runId) of a page's last row, or
 * for the cost sort its (cost, runId) and the order, so that a cursor of one sort is refused by
 * the other (BadInputError) rather than read as a wrong position.
 */
import { BadInputError } from "./errors";
import type { SortOrder } from "./types";

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

/** Where a cost-sorted page ended: its last run's cost (null: the unknown costs, sorted last). */
export interface CostCursor {
  costUsd: number | null;
  runId: string;
}

const COST_TAG = { asc: "cost-asc", desc: "cost-desc" } as const;

export function encodeCostCursor(cursor: CostCursor, order: SortOrder): string {
  return Buffer.from(JSON.stringify([COST_TAG[order], cursor.costUsd, cursor.runId]), "utf8").toString("base64url");
}

export function decodeCostCursor(text: string, order: SortOrder): CostCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch (error) {
    throw new BadInputError(`malformed cursor "${text.slice(0, 40)}"`, { cause: error });
  }
  if (Array.isArray(value) && value[0] === COST_TAG[order] && (value[1] === null || Number.isFinite(value[1])) && typeof value[2] === "string") {
    return { costUsd: value[1] as number | null, runId: value[2] };
  }
  throw new BadInputError(`malformed cursor "${text.slice(0, 40)}" for the cost sort, ${order}`);
}

export const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 500;

export function pageSize(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1) throw new BadInputError(`limit must be a positive integer, got ${limit}`);
  return Math.min(limit, MAX_PAGE_SIZE);
}
