/**
 * `backtrack replay` and `backtrack diff`: replay-based regression from the command line.
 * `replay --check` is what a CI job runs to pin a captured run: exit 0 when the replay against
 * the recorded outputs is identical, 1 when the replayed loop diverges, 2 on bad input.
 */
import type { Command } from "commander";
import type { RunDiff } from "../../inspect/diff";
import type { DiffEntry } from "../../inspect/compare";
import { checkReplay } from "../../regression/check";
import { diffRuns } from "../../regression/diff-runs";
import { ReplayFailedError } from "../../regression/errors";
import { RECORDED_MODEL } from "../../regression/models";
import { replayRun } from "../../regression/replay-run";
import { loadRegistry } from "../../config/file";
import { demoRegistry } from "../../demo/registry";
import { isBacktrackError } from "../../journal/errors";
import { matchingRuns, type parseRunFilter } from "../../suites/bulk";
import { exactlyOne } from "./transfer";
import { runCostFields } from "./show";
import { CliError, common, EXIT_CHECK_FAILED, printJson, printLine, table, withStore, type CommonOptions } from "../context";

interface ReplayOptions extends CommonOptions {
  model?: string;
  stripMemory?: boolean;
  check?: boolean;
  strict?: boolean;
  newId?: string;
  config?: string;
  filter?: string;
}

interface DiffOptions extends CommonOptions {
  realign?: boolean;
  limit?: string;
}

const SHOWN_ENTRIES = 200;

type RunFilter = ReturnType<typeof parseRunFilter>;

function brief(value: unknown, width = 48): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "null");
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function side(entry: DiffEntry, which: "A" | "B"): string {
  const detail = entry.detail;
  const kind = which === "A" ? detail.kindA : detail.kindB;
  if (!kind) return "—";
  if (kind === "model") {
    const calls = (which === "A" ? detail.toolCallsA : detail.toolCallsB) ?? [];
    const text = (which === "A" ? detail.textA : detail.textB) ?? "";
    return [text && brief(text, 40), ...calls.map((call) => `→ ${call.toolName}(${brief(call.args, 44)})`)].filter(Boolean).join(" ");
  }
  const name = which === "A" ? detail.toolNameA : detail.toolNameB;
  const status = which === "A" ? detail.statusA : detail.statusB;
  const output = which === "A" ? detail.outputA : detail.outputB;
  return `${name} ${status}: ${brief(output, 36)}`;
}

export function summaryLine(diff: Pick<RunDiff, "summary" | "divergentAt" | "steps">): string {
  const { same, changed, missing, added } = diff.summary;
  const counts = `${same} same, ${changed} changed, ${missing} missing, ${added} added`;
  if (diff.divergentAt === null) return `${counts}; no divergence`;
  const first = diff.steps[diff.divergentAt];
  const where = first ? `${first.kind === "model" ? "model" : `tool ${first.detail.toolName ?? ""}`.trim()} decision at step ${first.step}` : "";
  return `${counts}; first divergence at #${diff.divergentAt} (${where})`;
}

function printDiff(diff: RunDiff, limit: number): void {
  const rows = diff.steps
    .slice(0, limit)
    .map((entry) => [String(entry.index), String(entry.step), entry.kind, `${entry.status}${entry.realigned ? "*" : ""}`, side(entry, "A"), side(entry, "B")]);
  printLine(table([["#", "STEP", "KIND", "STATUS", `A: ${diff.a}`, `B: ${diff.b}`], ...rows]));
  if (diff.steps.length > limit) printLine(`… ${diff.steps.length - limit} more entries (--limit N, or --json for all)`);
  for (const entry of diff.steps.slice(0, limit)) if (entry.detail.note) printLine(`#${entry.index}: ${entry.detail.note}`);
  printLine();
  printLine(summaryLine(diff));
  if (diff.realign?.applied) printLine(`realigned after #${diff.realign.from} (* marks realigned entries; ${diff.realign.edits} insertions and deletions)`);
  else if (diff.realign) printLine(`not realigned: ${diff.realign.reason}`);
  else if (diff.divergentAt !== null)
    printLine(`after #${diff.divergentAt} the comparison is positional: an extra or missing call shifts what follows (--realign re-synchronises)`);
}

/** `replay --filter`: every matching root run, one at a time, one line each; exit 1 when any replay failed. */
async function replayMatching(filter: RunFilter, options: ReplayOptions): Promise<void> {
  if (options.check || options.newId) throw new CliError("--filter replays many runs: it does not take --check or --new-id (use `backtrack test` for a suite)");
  const registry = await loadRegistry(demoRegistry(), options.config);
  const model = options.model ?? RECORDED_MODEL;
  await withStore(options, async (store) => {
    const runIds = await matchingRuns(store, filter);
    const replays: Array<{ runId: string; newRunId: string; error?: string; diff?: { summary: RunDiff["summary"]; divergentAt: number | null } }> = [];
    for (const runId of runIds) {
      try {
        const replayed = await replayRun({ journal: store, runId, model, registry, stripMemoryContext: options.stripMemory });
        const diff = await diffRuns(store, runId, replayed.newRunId);
        replays.push({ runId, newRunId: replayed.newRunId, diff: { summary: diff.summary, divergentAt: diff.divergentAt } });
        if (!options.json) printLine(`${runId} → ${replayed.newRunId}: ${summaryLine(diff)}`);
      } catch (error) {
        if (!isBacktrackError(error)) throw error;
        process.exitCode = EXIT_CHECK_FAILED;
        replays.push({ runId, newRunId: error instanceof ReplayFailedError ? error.newRunId : "", error: error.message });
        if (!options.json) printLine(`${runId}: FAILED ${error.message}`);
      }
    }
    if (options.json) printJson({ model, replays });
    else printLine(`replayed ${runIds.length} run(s) under ${model}`);
  });
}

export function registerRegression(program: Command): void {
  common(
    program
      .command("replay [run]")
      .description("run a recorded run's input again under a model, and diff the two runs (or every run matching --filter)")
      .option("--filter <query>", "replay every root run matching this, e.g. 'status=failed&agent=billing' (keys: status, agent, search)")
      .option("--model <name>", `the model to replay under: ${RECORDED_MODEL} (its own recorded outputs, the default), demo/v1, demo/v2, or one from backtrack.config.ts`)
      .option("--strip-memory", "memory off: keep only the turn's own incoming messages (needs the run's :memctx record; the system text is kept as recorded)")
      .option("--check", `replay against the recorded outputs; exit 1 when the replayed loop diverges (no recorded output, or a different final answer), 0 when identical`)
      .option("--strict", "with --check: also fail when any decision differs (for example a tool output)")
      .option("--new-id <id>", "the replay's run id (default <run>~replay-<n>, the first free n)")
      .option("--config <path>", "a backtrack.config.ts registering models and agents (default: ./backtrack.config.ts, BACKTRACK_CONFIG)"),
  ).action(async (runArgument: string | undefined, options: ReplayOptions) => {
    const filter = exactlyOne(runArgument, options.filter);
    if (options.filter !== undefined) return replayMatching(filter, options);
    const runId = runArgument as string;
    if (options.check && options.model && options.model !== RECORDED_MODEL)
      throw new CliError(`--check replays against the recorded outputs: it cannot take --model ${options.model}`);
    if (options.check && options.stripMemory) throw new CliError("--check and --strip-memory do not go together");
    if (options.strict && !options.check) throw new CliError("--strict needs --check");
    const registry = await loadRegistry(demoRegistry(), options.config);
    await withStore(options, async (store) => {
      if (options.check) {
        const check = await checkReplay({ journal: store, runId, registry, newRunId: options.newId, strict: options.strict });
        if (!check.ok) process.exitCode = EXIT_CHECK_FAILED;
        if (options.json) return printJson({ ...check, diff: { summary: check.diff.summary, divergentAt: check.diff.divergentAt } });
        printLine(`${check.ok ? "check passed" : "check FAILED"}: ${runId} replayed against its recorded outputs as ${check.newRunId}`);
        if (check.reason) printLine(`reason: ${check.reason}`);
        printLine(`expected: ${brief(check.expected, 100)}`);
        printLine(`actual:   ${check.actual === null ? "(no final answer)" : brief(check.actual, 100)}`);
        printLine(`diff: ${summaryLine(check.diff)}`);
        return;
      }
      let replayed;
      try {
        replayed = await replayRun({ journal: store, runId, model: options.model ?? RECORDED_MODEL, registry, stripMemoryContext: options.stripMemory, newRunId: options.newId });
      } catch (error) {
        if (!(error instanceof ReplayFailedError)) throw error;
        const diff = await diffRuns(store, runId, error.newRunId);
        throw new CliError(`${error.message}\nthe partial replay is ${error.newRunId}; diff: ${summaryLine(diff)}`, EXIT_CHECK_FAILED);
      }
      const diff = await diffRuns(store, runId, replayed.newRunId);
      if (options.json) {
        return printJson({
          newRunId: replayed.newRunId,
          model: replayed.model,
          diff: { summary: diff.summary, divergentAt: diff.divergentAt },
          ...(await runCostFields(store, replayed.newRunId)),
          ...(replayed.pause ? { pause: replayed.pause } : {}),
          ...(replayed.memoryStripped ? { memoryStripped: replayed.memoryStripped } : {}),
        });
      }
      printLine(replayed.newRunId);
      printLine(`replayed ${runId} as ${replayed.newRunId} under ${replayed.model}${replayed.pause ? ` (paused: ${replayed.pause.message})` : ""}`);
      printLine(`diff: ${summaryLine(diff)}`);
      if (replayed.memoryStripped) printLine(`memory stripped: ${replayed.memoryStripped.message}`);
    });
  });

  common(
    program
      .command("diff <a> <b>")
      .description("compare two runs decision by decision (model steps and their tool calls, aligned by position)")
      .option("--realign", "re-synchronise after the first divergence (longest common subsequence; marked *)")
      .option("--limit <n>", `entries to print (default ${SHOWN_ENTRIES})`),
  ).action(async (a: string, b: string, options: DiffOptions) => {
    const limit = options.limit === undefined ? SHOWN_ENTRIES : Number(options.limit);
    if (!Number.isInteger(limit) || limit < 0) throw new CliError("--limit must be a whole number");
    await withStore(options, async (store) => {
      const diff = await diffRuns(store, a, b, { realign: options.realign });
      if (options.json) return printJson(diff);
      printDiff(diff, limit);
    });
  });
}
