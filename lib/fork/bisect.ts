/**
 * bisectRun: which model decision flips a run's outcome under another model. The run passes its
 * scorer as recorded (its diff with itself) and fails it replayed under `model`; forking at
 * model decision i (recorded before it, live under `model` from it) fails for i = 0 and passes
 * for i = n (nothing live). Bisect keeps fail(lo) and pass(hi) and halves the gap, so it makes at
 * most ⌈log2 n⌉ + 1 forks (the first checks that going live from the start fails), and returns
 * the last decision whose going live still fails: `k`, where the outcome flips.
 * The forks stay in the journal (listed in the result) for inspection. A fork that halts before a
 * tool (ForkEffectHalt, ResumeHalt) without having decided differently first is not a flip: bisect
 * refuses with BisectHaltError rather than report the halt as the step that differs.
 */
import type { Registry } from "../agent/registry";
import { runScorer, type ScoreResult } from "../agent/scorers";
import { BacktrackError } from "../journal/errors";
import type { Journal } from "../journal/ports";
import type { DiffDetail, RunDiff } from "../inspect/diff";
import { diffRuns } from "../regression/diff-runs";
import { forkRun } from "./fork-run";

export interface BisectOptions {
  /** The registry model the forks go live under. */
  model: string;
  /** A registered scorer's name (backtrack.config.ts `scorers`, or the built-in `same-decisions`). */
  scorer: string;
  registry: Registry;
  /** Let the forks run external tools (default: they halt before them, and are scored as they stand). */
  allowEffects?: boolean;
}

export interface BisectFork {
  runId: string;
  /** The model decision the fork went live from, and its seq. */
  decision: number;
  at: number;
  pass: boolean;
  reason?: string;
}

export interface BisectResult {
  runId: string;
  model: string;
  scorer: string;
  /** Model decisions in the run. */
  decisions: number;
  /** The decision where the outcome flips: live from it fails, live from the next one passes. */
  k: number;
  /** The seq of decision k's model record, and its row in the diff with the failing fork. */
  seq: number;
  row: number;
  /** The fork that went live from k (fails), to diff against. */
  failingFork: string;
  /** Decision k as recorded, and as the model decided it live. */
  recorded: Pick<DiffDetail, "textA" | "toolCallsA">;
  live: Pick<DiffDetail, "textB" | "toolCallsB">;
  forks: BisectFork[];
}

/** A bisect that cannot start: the run fails its own scorer, or does not fail under the model. */
export class BisectError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly reason: string,
  ) {
    super("bad_fork", `cannot bisect run "${runId}": ${reason}`);
  }
}

/**
 * A fork bisect made halted before a tool (an external one without `allowEffects`, or one whose
 * outcome is unknown) instead of running to its end. A halt is not a behaviour flip: the fork did
 * not decide differently, it stopped, so it cannot be scored and bisect stops rather than report it.
 */
export class BisectHaltError extends BisectError {
  constructor(
    runId: string,
    readonly decision: number,
    readonly at: number,
    readonly forkRunId: string,
    readonly toolName: string,
    readonly halt: "fork_effect" | "unknown_outcome",
  ) {
    super(
      runId,
      `the fork live from decision ${decision} (step ${at}, run "${forkRunId}") halted before ${toolName} (${halt === "fork_effect" ? "an external tool, which forks do not run without allowEffects" : "its outcome is unknown"}); a halt is not a behaviour flip, so it cannot be scored${halt === "fork_effect" ? "; allow effects (--allow-effects) if repeating the tool is harmless" : ""}`,
    );
  }
}

/**
 * Whether a halted fork differs from the run only by its halt: it parts nowhere, or first where
 * its tool did not run (`no_result`) or its records end. A fork whose live model decided
 * differently before it halted did flip, and is scored as any fork.
 */
function onlyHalted(diff: RunDiff): boolean {
  const first = diff.divergentAt === null ? undefined : diff.steps[diff.divergentAt];
  if (first?.status !== "changed") return true;
  return first.kind === "tool" && first.detail.statusB === "no_result";
}

async function score(store: Journal, options: BisectOptions, a: string, b: string): Promise<ScoreResult> {
  return runScorer(options.registry.scorer(options.scorer), await diffRuns(store, a, b));
}

/** The seqs of the run's model turn records (`turn:<t>`), in order. */
async function modelSeqs(store: Journal, runId: string): Promise<number[]> {
  const seqs: number[] = [];
  for (let from = 0; ;) {
    const page = await store.history(runId, { from, limit: 5_000 });
    for (const record of page) if (record.kind === "model" && /^turn:\d+$/.test(record.name)) seqs.push(record.seq);
    if (page.length < 5_000) return seqs;
    from = (page.at(-1)?.seq ?? from) + 1;
  }
}

export async function bisectRun(store: Journal, runId: string, options: BisectOptions): Promise<BisectResult> {
  options.registry.scorer(options.scorer);
  const seqs = await modelSeqs(store, runId);
  if (seqs.length === 0) throw new BisectError(runId, "it has no model decisions");
  const own = await score(store, options, runId, runId);
  if (!own.pass) throw new BisectError(runId, `it fails scorer "${options.scorer}" as recorded${own.reason ? ` (${own.reason})` : ""}`);
  const forks: BisectFork[] = [];
  const tryFrom = async (decision: number): Promise<BisectFork> => {
    const at = seqs[decision] as number;
    const forked = await forkRun(store, runId, { at, model: options.model, registry: options.registry, allowEffects: options.allowEffects === true });
    if (forked.pause?.reason === "halt" && onlyHalted(await diffRuns(store, runId, forked.newRunId))) {
      throw new BisectHaltError(runId, decision, at, forked.newRunId, forked.pause.toolName ?? "a tool", forked.pause.halt ?? "unknown_outcome");
    }
    const verdict = await score(store, options, runId, forked.newRunId);
    const fork: BisectFork = { runId: forked.newRunId, decision, at, pass: verdict.pass, ...(verdict.reason ? { reason: verdict.reason } : {}) };
    forks.push(fork);
    return fork;
  };
  let failing = await tryFrom(0);
  if (failing.pass) throw new BisectError(runId, `it still passes scorer "${options.scorer}" going live under ${options.model} from its first decision: nothing flips`);
  let low = 0;
  let high = seqs.length;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const fork = await tryFrom(middle);
    if (fork.pass) high = middle;
    else [low, failing] = [middle, fork];
  }
  const diff = await diffRuns(store, runId, failing.runId);
  const entry = diff.steps.find((step) => step.detail.seqB === failing.at) ?? diff.steps.find((step) => (step.detail.seqA ?? -1) >= failing.at);
  const detail = entry?.detail ?? {};
  return {
    runId,
    model: options.model,
    scorer: options.scorer,
    decisions: seqs.length,
    k: low,
    seq: failing.at,
    row: entry?.index ?? diff.divergentAt ?? 0,
    failingFork: failing.runId,
    recorded: { textA: detail.textA, toolCallsA: detail.toolCallsA },
    live: { textB: detail.textB, toolCallsB: detail.toolCallsB },
    forks,
  };
}
