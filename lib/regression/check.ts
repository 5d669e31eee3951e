/**
 * checkReplay: what `backtrack replay <run> --check` runs in CI to pin a captured run. It replays
 * the run against its own recorded model outputs (the `recorded` model; tools run again, for real)
 * and passes when the replayed loop reaches the same final answer. It fails when the loop diverges:
 * it asks for a model turn that was never recorded (NoRecordedOutputError), pauses where the
 * recording completed, fails, or ends with a different answer. `strict` also fails on any
 * decision-level difference (a tool output that changed).
 */
import type { ValuePayload } from "../agent/payloads";
import type { Registry } from "../agent/registry";
import { isBacktrackError, RunNotFoundError } from "../journal/errors";
import { RUN_COMPLETE } from "../journal/names";
import type { Journal } from "../journal/ports";
import type { RunDiff } from "../inspect/diff";
import { diffRuns } from "./diff-runs";
import { ReplayFailedError, RunNotCompleteError } from "./errors";
import { RECORDED_MODEL } from "./models";
import { replayRun } from "./replay-run";

export interface CheckResult {
  ok: boolean;
  runId: string;
  newRunId: string;
  /** Why the check failed; absent when it passed. */
  reason?: string;
  /** The error code behind a failed replay (no_recorded_output when the loop asked for more turns). */
  code?: string;
  expected: string;
  actual: string | null;
  diff: RunDiff;
}

export async function checkReplay(options: { journal: Journal; runId: string; registry?: Registry; newRunId?: string; strict?: boolean }): Promise<CheckResult> {
  const { journal, runId } = options;
  const summary = await journal.run(runId);
  if (!summary) throw new RunNotFoundError(runId);
  if (summary.status !== "complete") throw new RunNotCompleteError(runId, summary.status);
  const complete = (await journal.record(runId, RUN_COMPLETE))?.payload as ValuePayload | undefined;
  const expected = String((complete?.value as { text?: unknown } | null)?.text ?? "");
  let newRunId: string;
  let actual: string | null = null;
  let reason: string | undefined;
  let code: string | undefined;
  try {
    const replayed = await replayRun({ journal, runId, model: RECORDED_MODEL, registry: options.registry, newRunId: options.newRunId });
    newRunId = replayed.newRunId;
    if (replayed.pause) reason = `the replay paused (${replayed.pause.reason}) where the recording completed`;
    else actual = replayed.result?.text ?? null;
  } catch (error) {
    if (!(error instanceof ReplayFailedError) && !isBacktrackError(error, "replay_failed")) throw error;
    const failed = error as ReplayFailedError;
    newRunId = failed.newRunId;
    code = isBacktrackError(failed.cause) ? failed.cause.code : "error";
    reason = `the replayed loop diverged: ${failed.cause instanceof Error ? failed.cause.message : String(failed.cause)}`;
  }
  const diff = await diffRuns(journal, runId, newRunId);
  if (!reason && actual !== expected) reason = "the replay ended with a different final answer";
  if (!reason && options.strict && diff.divergentAt !== null) reason = `a decision differs (strict): entry ${diff.divergentAt}`;
  return { ok: reason === undefined, runId, newRunId, ...(reason ? { reason } : {}), ...(code ? { code } : {}), expected, actual, diff };
}
