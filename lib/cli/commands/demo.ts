import type { Command } from "commander";
import { LIVE_DEFAULTS, liveRunId, runLiveDemo } from "../../demo/live";
import { writeDemo } from "../../demo/seed";
import { CliError, common, printJson, printLine, withStore, type CommonOptions } from "../context";

interface DemoOptions extends CommonOptions {
  live?: boolean;
  runId?: string;
  accounts?: string;
  interval?: string;
}

function positive(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new CliError(`${name} must be a positive integer`);
  return number;
}

export function registerDemo(program: Command): void {
  common(
    program
      .command("demo")
      .description("write the demo runs (scripted models, the real agent loop); --live: a run that grows while you watch it in the inspector")
      .option("--live", `run a scripted auditor that takes a step every ${LIVE_DEFAULTS.intervalMs} ms`)
      .option("--run-id <id>", "the live run's id (default live-<time>)")
      .option("--accounts <n>", `accounts the live auditor checks, two per model turn (default ${LIVE_DEFAULTS.accounts})`)
      .option("--interval <ms>", `milliseconds per live step (default ${LIVE_DEFAULTS.intervalMs})`),
  ).action(async (options: DemoOptions) => {
    if (options.live) {
      const runId = options.runId ?? liveRunId();
      const accounts = positive(options.accounts, "--accounts", LIVE_DEFAULTS.accounts);
      const intervalMs = positive(options.interval, "--interval", LIVE_DEFAULTS.intervalMs);
      await withStore(options, async (store) => {
        if (!options.json) printLine(`live run ${runId}: watch it at /runs/${encodeURIComponent(runId)} in the inspector (npx backtrack start)`);
        const result = await runLiveDemo(store, {
          runId,
          accounts,
          intervalMs,
          onEvent: (event) => {
            if (options.json) return;
            if (event.type === "AssistantTurn")
              printLine(`turn ${event.turn}: ${event.message.content.map((part) => (part.type === "text" ? part.text : `→ ${part.toolName}`)).join(" ")}`);
            else if (event.type === "ToolCompleted") printLine(`  ${event.name} done`);
          },
        });
        if (options.json) printJson({ runId, text: result.text, turns: result.turns, usage: result.usage });
        else printLine(`complete: ${result.text}`);
      });
      return;
    }
    await withStore(options, async (store) => {
      const written = await writeDemo(store, (progress) => {
        if (!options.json) printLine(`${progress.state.padEnd(7)} ${progress.runId.padEnd(14)} ${progress.about}`);
      });
      if (options.json) printJson({ runs: written });
    });
  });
}
