/**
 * What a fork copies besides its own records, as rules both stores keep (MemStore here, the SQL
 * store in lib/store/fork-sql.ts): the sub-agent runs started before the fork step, whole, each
 * under the fork's id in place of the source's (`<source>.t0c0` → `<fork>.t0c0`, at any depth).
 * Invariants:
 * - a sub-agent run is copied when its `subagent` signal is among the copied records of its
 *   parent (for the fork's own run: a record before `at`); a copied run's own sub-agent runs
 *   follow it, since its records are copied whole;
 * - only run ids change, and only where the journal names runs: a `subagent` signal's
 *   `childRunId`, a tool result's `childRunIds`, a copied run's header `parentRunId`. Every other
 *   byte of a payload stays the source's, text that merely looks like a run id included.
 */
import type { JournalRecord } from "./types";

/** The id a copied run gets: the source's prefix swapped for the fork's; other ids are left as they are. */
export function forkRunId(sourceRunId: string, newRunId: string, runId: string): string {
  if (runId === sourceRunId) return newRunId;
  return runId.startsWith(`${sourceRunId}.`) ? newRunId + runId.slice(sourceRunId.length) : runId;
}

/** The sub-agent runs these records say were started, in order (their ids as recorded). */
export function startedSubAgents(records: readonly JournalRecord[]): string[] {
  const started: string[] = [];
  for (const record of records) {
    const payload = record.payload as { type?: unknown; childRunId?: unknown } | null;
    if (record.kind === "signal" && payload?.type === "subagent" && typeof payload.childRunId === "string") started.push(payload.childRunId);
  }
  return started;
}

/** The payload with the run ids it names mapped by `rename` (a new object where anything changed). */
export function renamedPayload(record: Pick<JournalRecord, "kind" | "payload">, rename: (runId: string) => string): unknown {
  const payload = record.payload as Record<string, unknown> | null;
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return record.payload;
  if (record.kind === "signal" && payload.type === "subagent" && typeof payload.childRunId === "string") return { ...payload, childRunId: rename(payload.childRunId) };
  if (record.kind === "tool_result" && Array.isArray(payload.childRunIds))
    return { ...payload, childRunIds: payload.childRunIds.map((id: unknown) => (typeof id === "string" ? rename(id) : id)) };
  if (record.kind === "header" && typeof payload.parentRunId === "string") return { ...payload, parentRunId: rename(payload.parentRunId) };
  return record.payload;
}
