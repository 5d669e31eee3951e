/**
 * The wire shape of the inspector's live streams (/api/stream, /api/runs/{id}/stream): the server
 * (app/_server/live.ts) writes it and the browser (components/use-live.ts) reads it, so both
 * import this one definition. Page-only: not exported from the package entry.
 */
import type { RunStatus } from "../journal/types";

/** The latest change of one run: its last appended seq (-1 for a status change alone) and status. */
export interface LiveChange {
  runId: string;
  seq: number;
  status: RunStatus;
}

/** One `change` event: the latest change of each run since the previous event. */
export interface LiveChangeEvent {
  changes: LiveChange[];
}
