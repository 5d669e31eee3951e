/**
 * When may a resume run a tool call again? A call with an `attempt` record and no result was
 * cut off; whether running it again could repeat a side effect depends on where it stopped:
 * - at a pause point of its own (a question, a sleep, a sub-agent: its last record is that
 *   `signal`): the tool was waiting, not working, so it is re-entered and replays to that point;
 * - anywhere else (its last record is the attempt, a step value or a `:passed` marker): it may
 *   have done anything since, so the outcome is unknown and the run halts (ResumeHalt), unless
 *   the tool declares `safety.idempotencyKey`.
 * Records a human writes under the call (approval, answers) are not the tool's progress.
 */
import type { JournalRecord } from "../journal/types";

const PAUSE_POINTS = new Set(["interrupt", "sleep", "subagent"]);

export function stoppedAtPause(records: Iterable<JournalRecord>, call: string): boolean {
  const prefix = `${call}:`;
  let last: JournalRecord | undefined;
  for (const record of records) {
    if (!record.name.startsWith(prefix) || record.kind === "approval") continue;
    if (isAnswer(record)) continue;
    if (!last || record.seq > last.seq) last = record;
  }
  if (!last || last.kind !== "signal") return false;
  const type = (last.payload as { type?: unknown } | null)?.type;
  return typeof type === "string" && PAUSE_POINTS.has(type);
}

function isAnswer(record: JournalRecord): boolean {
  return record.kind === "signal" && (record.payload as { type?: unknown } | null)?.type === "answer";
}
