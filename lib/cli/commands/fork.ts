/**
 * `backtrack fork`: fork a run at a step, with an edit there, and run it on live. It prints the
 * plan (the tools that may run live, and which of them halt), runs the fork, and prints how it
 * ended with its diff against the source. Exit 0 when the fork completed or paused, 1 when it
 * failed, 2 on bad input (nothing is written then).
 */
import type { Command } from "commander";
import { loadRegistry } from "../../config/file";
import { demoRegistry } from "../../demo/registry";
import type { ForkEdit } from "../../fork/edits";
import { forkRun } from "../../fork/fork-run";
import { forkPlan, type ForkPlan } from "../../fork/plan";
import { parseFiniteJson } from "../../journal/jsonl";
import { diffRuns } from "../../regression/diff-runs";
import { runCostFields } from "./show";
import { CliError, common, EXIT_CHECK_FAILED, printJson, printLine, withStore, type CommonOptions } from "../context";
import { summaryLine } from "./regression";

interface ForkCliOptions extends CommonOptions {
  at: string;
  result?: string;
  error?: string;
  text?: string;
  args?: string;
  call?: string;
  value?: string;
  deny?: boolean;
  approve?: boolean;
  userMessage?: string;
  model?: string;
  allowEffects?: boolean;
  newId?: string;
  config?: string;
}

function json(flag: string, text: string): unknown {
  try {
    return parseFiniteJson(text);
  } catch (error) {
    throw new CliError(`${flag} must be JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The one edit the flags ask for (or none); two edit flags at once are refused. */
export function editFromFlags(options: ForkCliOptions): ForkEdit | undefined {
  const edits: ForkEdit[] = [];
  if (options.result !== undefined) edits.push({ kind: "result", result: json("--result", options.result) });
  if (options.error !== undefined) edits.push({ kind: "error", error: options.error });
  if (options.text !== undefined) edits.push({ kind: "text", text: options.text });
  if (options.args !== undefined) edits.push({ kind: "args", args: json("--args", options.args), ...(options.call === undefined ? {} : { call: whole("--call", options.call) }) });
  if (options.value !== undefined) edits.push({ kind: "value", value: json("--value", options.value) });
  if (options.deny) edits.push({ kind: "approval", approved: false, reason: "denied in a fork" });
  if (options.approve) edits.push({ kind: "approval", approved: true });
  if (options.userMessage !== undefined) edits.push({ kind: "user_message", text: options.userMessage });
  if (edits.length > 1) throw new CliError("give at most one edit: --result, --error, --text, --args, --value, --deny, --approve or --user-message");
  if (options.call !== undefined && options.args === undefined) throw new CliError("--call goes with --args");
  return edits[0];
}

function whole(flag: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) throw new CliError(`${flag} must be a whole number, not "${text}"`);
  return value;
}

function printPlan(plan: ForkPlan): void {
  printLine(`plan: fork ${plan.sourceRunId} at step ${plan.at} (${plan.record.kind} "${plan.record.name}"${plan.edited ? ", edited" : ""}), live after it under ${plan.model}`);
  for (const tool of plan.tools) {
    const note = tool.halts ? "halts before it runs (fork_effect; --allow-effects lets it run)" : "runs";
    printLine(`  ${tool.name}  ${tool.effects}${tool.pending ? "  pending" : ""}  ${note}`);
  }
}

export function registerFork(program: Command): void {
  common(
    program
      .command("fork <run>")
      .description("fork a run at step N, edit the record there, and run it on live from it")
      .requiredOption("--at <n>", "the step (seq) to fork at: records before it are copied, the one at it is edited or run again")
      .option("--result <json>", "edit: the tool result at N")
      .option("--error <text>", "edit: the tool call at N failed with this error")
      .option("--text <text>", "edit: the model turn at N says this text")
      .option("--args <json>", "edit: the arguments of the model turn's tool call (the first; --call I for another)")
      .option("--call <i>", "with --args: which of the turn's tool calls (from 0)")
      .option("--value <json>", "edit: the value of the step at N")
      .option("--deny", "edit: the approval at N is a denial")
      .option("--approve", "edit: the approval at N is an approval")
      .option("--user-message <text>", "edit: insert a user message before the model turn at N")
      .option("--model <name>", "the model after N (default: the one the run was recorded with; demo/v1, demo/v2, or one from backtrack.config.ts)")
      .option("--allow-effects", "let tools with external effects run after N (default: the fork halts before them)")
      .option("--new-id <id>", "the fork's run id (default <run>~fork-<n>, the first free n)")
      .option("--config <path>", "a backtrack.config.ts registering models and agents (default: ./backtrack.config.ts, BACKTRACK_CONFIG)"),
  ).action(async (runId: string, options: ForkCliOptions) => {
    const at = whole("--at", options.at);
    const edit = editFromFlags(options);
    const registry = await loadRegistry(demoRegistry(), options.config);
    await withStore(options, async (store) => {
      const asked = { at, registry, ...(edit ? { edit } : {}), ...(options.model ? { model: options.model } : {}), allowEffects: options.allowEffects === true };
      const plan = await forkPlan(store, runId, asked);
      if (!options.json) printPlan(plan);
      const forked = await forkRun(store, runId, { ...asked, ...(options.newId ? { newRunId: options.newId } : {}) });
      const diff = await diffRuns(store, runId, forked.newRunId);
      if (forked.status === "failed") process.exitCode = EXIT_CHECK_FAILED;
      if (options.json) {
        return printJson({
          newRunId: forked.newRunId,
          forkedFrom: forked.forkedFrom,
          model: forked.model,
          status: forked.status,
          plan: plan.tools,
          diff: { summary: diff.summary, divergentAt: diff.divergentAt },
          ...(await runCostFields(store, forked.newRunId)),
          ...(forked.pause ? { pause: forked.pause } : {}),
          ...(forked.error ? { error: forked.error } : {}),
        });
      }
      printLine(forked.newRunId);
      const how = forked.pause ? `paused: ${forked.pause.message}` : forked.error ? `failed: ${forked.error}` : forked.status;
      printLine(`forked ${runId} at step ${at} as ${forked.newRunId} under ${forked.model}: ${how}`);
      printLine(`diff: ${summaryLine(diff)}`);
    });
  });
}
