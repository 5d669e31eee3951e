/**
 * When may a resume run a tool call again? A call with an `attempt` record and no result was
 * cut off; whether running it again could repeat a side effect depends on where it stopped:
 * - at a pause point of its own (a question, a sleep, a sub-agent: its last record is that
 *   `signal`): the tool was waiting, not working, so it is re-entered and replays to that point;
 * - anywhere else (its last record is the attempt, a step value or a `:passed` marker): it may
 *   have done anything since, so the outcome is unknown and the run halts (ResumeHalt), unless
 *   the tool declares `safety.idempotencyKey` or effects `idempotent` or `none` (it only reads).
 * Records a human writes under the call (approval, answers) are not the tool's progress.
 *
 * A halted call goes on once a human resolves it (`<call>:resolution:<n>`, see ResolutionPayload):
 * resolution n answers the n-th unknown outcome, where n - 1 is the number of retries already
 * made (`<call>:retry:<k>`, written before the call runs again). So a retry that is cut off too is
 * an unknown outcome again, and waits for resolution n + 1: no call ever runs twice on its own.
 */
import { resolutionName, retryName } from "../journal/names";
import type { JournalRecord } from "../journal/types";
import type { ResolutionPayload } from "./payloads";

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

/** The resolution the call's current unknown outcome needs (number `n`), and that resolution if a human gave it. */
export function openResolution(recorded: ReadonlyMap<string, JournalRecord>, call: string): { n: number; resolution?: ResolutionPayload } {
  let n = 1;
  while (recorded.has(retryName(call, n))) n += 1;
  const record = recorded.get(resolutionName(call, n));
  return record ? { n, resolution: record.payload as ResolutionPayload } : { n };
}
