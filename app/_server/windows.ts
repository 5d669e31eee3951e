/**
 * Reading a run's records a window at a time, within the response budget (lib/inspect/budget.ts):
 * the database is read in chunks and reading stops once the budget is spent, so a request for many
 * large records neither sends nor holds more than about one budget of them.
 */
import "server-only";
import { jsonBytes, RESPONSE_BUDGET_BYTES } from "@/lib/inspect/budget";
import type { Journal } from "@/lib/journal/ports";
import type { JournalRecord } from "@/lib/journal/types";
import { redacted } from "./redaction";

const CHUNK = 100;

/**
 * Up to `limit` records of `runId` from seq `from`, secrets redacted, stopping before the one that
 * would pass `budget` bytes (the first is always kept: an answer always moves forward).
 */
export async function recordsWithin(store: Pick<Journal, "history">, runId: string, from: number, limit: number, budget = RESPONSE_BUDGET_BYTES): Promise<JournalRecord[]> {
  const taken: JournalRecord[] = [];
  let used = 0;
  let next = from;
  while (taken.length < limit) {
    const wanted = Math.min(CHUNK, limit - taken.length);
    const chunk = await store.history(runId, { from: next, limit: wanted });
    for (const record of redacted(chunk)) {
      used += jsonBytes(record) + 1;
      if (used > budget && taken.length > 0) return taken;
      taken.push(record);
    }
    if (chunk.length < wanted) break;
    next += chunk.length;
  }
  return taken;
}

/**
 * The records at `wanted` (ascending seqs), secrets redacted, read from the newest down in chunks
 * and stopping before the one that would pass `budget` bytes. A tool result counts twice: the state
 * window lists it in the conversation and among the tool results.
 */
export async function newestWithin(store: Pick<Journal, "history">, runId: string, wanted: readonly number[], budget = RESPONSE_BUDGET_BYTES): Promise<JournalRecord[]> {
  const taken: JournalRecord[] = [];
  let used = 0;
  let index = wanted.length - 1;
  while (index >= 0) {
    const high = wanted[index]!;
    const low = Math.max(wanted[0]!, high - CHUNK + 1);
    const chunk = await store.history(runId, { from: low, limit: high - low + 1 });
    const bySeq = new Map(chunk.map((record) => [record.seq, record]));
    for (; index >= 0 && wanted[index]! >= low; index -= 1) {
      const raw = bySeq.get(wanted[index]!);
      if (!raw) continue;
      const record = redacted(raw);
      used += (jsonBytes(record) + 1) * (record.kind === "tool_result" ? 2 : 1);
      if (used > budget && taken.length > 0) return taken;
      taken.push(record);
    }
  }
  return taken;
}
