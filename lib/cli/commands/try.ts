/**
 * `backtrack try`: re-run one model turn of a run N times (lib/playground) and print how the tries
 * split against the recorded output, one line a try, then the summary; `--fork-with I` forks try I
 * live. Exit 0 when the tries ran, 2 on bad input (nothing is run or written then).
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import type { Message } from "../../agent/messages";
import { loadRegistry } from "../../config/file";
import { demoRegistry } from "../../demo/registry";
import { parseFiniteJson } from "../../journal/jsonl";
import { forkTry } from "../../playground/fork-try";
import { MAX_TRIES, tryStep, type StepTries, type TryEdits } from "../../playground/try-step";
import { CliError, common, EXIT_CHECK_FAILED, printJson, printLine, withStore, type CommonOptions } from "../context";

interface TryCliOptions extends CommonOptions {
  at: string;
  times: string;
  system?: string;
  systemFile?: string;
  messagesFile?: string;
  model?: string;
  forkWith?: string;
  allowEffects?: boolean;
  journal: boolean;
  config?: string;
}

function whole(flag: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) throw new CliError(`${flag} must be a whole number, not "${text}"`);
  return value;
}

function readText(flag: string, path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new CliError(`${flag}: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The edits the flags ask for: a system prompt (text or file) and a message list (a JSON file). */
export function editsFromFlags(options: TryCliOptions): TryEdits {
  if (options.system !== undefined && options.systemFile !== undefined) throw new CliError("give --system or --system-file, not both");
  const system = options.systemFile !== undefined ? readText("--system-file", options.systemFile).replace(/\n$/, "") : options.system;
  let messages: Message[] | undefined;
  if (options.messagesFile !== undefined) {
    try {
      messages = parseFiniteJson(readText("--messages-file", options.messagesFile)) as Message[];
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(`--messages-file must hold a JSON list of messages: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { ...(system !== undefined ? { system } : {}), ...(messages !== undefined ? { messages } : {}) };
}

function printTries(tried: StepTries): void {
  printLine(`tried step ${tried.at} (turn ${tried.turn}) of ${tried.runId} ${tried.tries.length} time(s) under ${tried.model}${tried.edited ? ", edited" : ""}`);
  printLine(`recorded: ${tried.recorded.text.replace(/\s+/g, " ")}`);
  for (const each of tried.tries) printLine(`  try ${each.index}${each.runId ? ` ${each.runId}` : ""}: ${each.text.replace(/\s+/g, " ")}`);
  printLine(`summary: ${tried.summary.line}`);
}

export function registerTry(program: Command): void {
  common(
    program
      .command("try <run>")
      .description("re-run the model turn at step N of a run, N times, and show how often it goes the other way")
      .requiredOption("--at <n>", "the step (seq) of a model turn")
      .option("--times <n>", `how many tries, 1 to ${MAX_TRIES}`, "1")
      .option("--system <text>", "edit: the system prompt the tries are sent")
      .option("--system-file <path>", "edit: the system prompt, read from a file")
      .option("--messages-file <path>", "edit: the whole message list, a JSON file (start from `backtrack try --json`'s request.messages)")
      .option("--model <name>", "the model to try (default: the one the run was recorded with; demo/v1, demo/v2, or one from backtrack.config.ts)")
      .option("--no-journal", "do not journal the tries as runs (they are, by default: <run>~try-<n>, origin playground)")
      .option("--fork-with <i>", "then fork try I (from 0) and run it on live from its output")
      .option("--allow-effects", "with --fork-with: let tools with external effects run (default: the fork halts before them)")
      .option("--config <path>", "a backtrack.config.ts registering models and agents (default: ./backtrack.config.ts, BACKTRACK_CONFIG)"),
  ).action(async (runId: string, options: TryCliOptions) => {
    const at = whole("--at", options.at);
    const times = whole("--times", options.times);
    const forkWith = options.forkWith === undefined ? undefined : whole("--fork-with", options.forkWith);
    if (forkWith !== undefined && !options.journal) throw new CliError("--fork-with forks a journaled try: leave out --no-journal");
    if (forkWith !== undefined && forkWith >= times) throw new CliError(`--fork-with ${forkWith}: there are ${times} tries, from 0`);
    const edits = editsFromFlags(options);
    const registry = await loadRegistry(demoRegistry(), options.config);
    await withStore(options, async (store) => {
      const tried = await tryStep(store, runId, at, { registry, times, edits, journal: options.journal, ...(options.model ? { model: options.model } : {}) });
      const chosen = forkWith === undefined ? undefined : tried.tries[forkWith]?.runId;
      const forked = chosen ? await forkTry(store, chosen, { registry, allowEffects: options.allowEffects === true }) : undefined;
      if (forked?.status === "failed") process.exitCode = EXIT_CHECK_FAILED;
      if (options.json) return printJson({ ...tried, ...(forked ? { fork: forked } : {}) });
      printTries(tried);
      if (forked)
        printLine(`forked try ${forkWith} as ${forked.newRunId}: ${forked.pause ? `paused: ${forked.pause.message}` : forked.error ? `failed: ${forked.error}` : forked.status}`);
    });
  });
}
