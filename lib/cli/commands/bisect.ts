/**
 * `backtrack bisect`: which model decision flips a run under another model, by forking it at
 * most ⌈log2 n⌉ + 1 times (lib/fork/bisect.ts). Exit 0 when found, 2 on bad input (a run that
 * fails its own scorer, that nothing flips, or whose fork only halted before a tool).
 */
import type { Command } from "commander";
import { loadRegistry } from "../../config/file";
import { demoRegistry } from "../../demo/registry";
import { bisectRun } from "../../fork/bisect";
import { common, printJson, printLine, withStore, type CommonOptions } from "../context";

interface BisectCliOptions extends CommonOptions {
  model: string;
  scorer: string;
  allowEffects?: boolean;
  config?: string;
}

function side(text: string | undefined, calls: Array<{ toolName: string; args: unknown }> | undefined): string {
  const parts = [text ? JSON.stringify(text) : "", ...(calls ?? []).map((call) => `→ ${call.toolName}(${JSON.stringify(call.args)})`)].filter(Boolean);
  return parts.join(" ") || "(nothing)";
}

export function registerBisect(program: Command): void {
  common(
    program
      .command("bisect <run>")
      .description("find the model decision that flips a run's outcome under another model (forks at most ⌈log2 n⌉ + 1 times)")
      .requiredOption("--model <name>", "the registry model the forks go live under (demo/v2, or one from backtrack.config.ts)")
      .requiredOption("--scorer <name>", "a scorer from backtrack.config.ts, or same-decisions (passes when no decision differs)")
      .option("--allow-effects", "let the forks run tools with external effects (default: they halt before them, and bisect stops: a halt is not a flip)")
      .option("--config <path>", "a backtrack.config.ts registering models, agents and scorers (default: ./backtrack.config.ts, BACKTRACK_CONFIG)"),
  ).action(async (runId: string, options: BisectCliOptions) => {
    const registry = await loadRegistry(demoRegistry(), options.config);
    await withStore(options, async (store) => {
      const result = await bisectRun(store, runId, { model: options.model, scorer: options.scorer, registry, allowEffects: options.allowEffects === true });
      if (options.json) return printJson(result);
      printLine(`k = ${result.k}: decision ${result.k} of ${result.decisions} (step ${result.seq}) flips ${runId} under ${result.model} (scorer ${result.scorer})`);
      printLine(`  recorded: ${side(result.recorded.textA, result.recorded.toolCallsA)}`);
      printLine(`  live:     ${side(result.live.textB, result.live.toolCallsB)}`);
      printLine(`forks (${result.forks.length}): ${result.forks.map((fork) => `${fork.runId} from ${fork.decision} ${fork.pass ? "passes" : "fails"}`).join(", ")}`);
      printLine(`diff: backtrack diff ${runId} ${result.failingFork}`);
    });
  });
}
