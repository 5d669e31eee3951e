/**
 * Crash recovery on the command line:
 *   backtrack recover [--lease-ttl MS] [--include-imported]
 *                                               re-drive every unfinished run an agent wrote (one line a run, then a summary)
 *   backtrack approve <run> [--deny] [--by NAME] [--reason TEXT]
 *   backtrack answer <run> <text> [--by NAME]
 *   backtrack resolve <run> --succeeded [--result JSON] | --failed [--reason TEXT] | --retry [--by NAME]
 * Runs are rebuilt from the registry (the demo's plus backtrack.config.ts, --config) by the agent
 * and model named in run:start; sleeps register
 * with a PostgresWaker on the same database. A decision resumes the run's root under a lease.
 */
import { userInfo } from "node:os";
import type { Command } from "commander";
import { recoveryCounts, recoverySentence, recoverWithRegistry, resumeRoot } from "../../recovery/actions";
import { answer, approve, resolveHalt, type Resolution } from "../../recovery/pause-decisions";
import { loadRegistry } from "../../config/file";
import { demoRegistry } from "../../demo/registry";
import { defaultHolder, DEFAULT_LEASE_TTL_MS } from "../../recovery/lease";
import type { RecoveredRun } from "../../recovery/recover";
import { PostgresWaker } from "../../store/postgres-waker";
import type { PostgresStore } from "../../store/postgres-store";
import { CliError, common, EXIT_CHECK_FAILED, printJson, printLine, withStore, type CommonOptions } from "../context";

interface RecoverOptions extends CommonOptions {
  leaseTtl?: string;
  includeImported?: boolean;
  config?: string;
}

interface DecisionOptions extends RecoverOptions {
  by?: string;
  deny?: boolean;
  reason?: string;
}

interface ResolveOptions extends DecisionOptions {
  succeeded?: boolean;
  failed?: boolean;
  retry?: boolean;
  result?: string;
}

const CONFIG_OPTION = ["--config <path>", "backtrack.config.ts with your agents and models (default: BACKTRACK_CONFIG, then backtrack.config.* here)"] as const;

/** What --succeeded / --failed / --retry (exactly one) and --result ask for. */
function resolutionOf(options: ResolveOptions, by: string): Resolution {
  const chosen = (["succeeded", "failed", "retry"] as const).filter((outcome) => options[outcome]);
  if (chosen.length !== 1) throw new CliError("say how the call ended: exactly one of --succeeded, --failed or --retry");
  const outcome = chosen[0] as Resolution["outcome"];
  if (options.result !== undefined && outcome !== "succeeded") throw new CliError("--result goes with --succeeded only");
  let result: unknown = null;
  if (options.result !== undefined) {
    try {
      result = JSON.parse(options.result);
    } catch (error) {
      throw new CliError(`--result must be JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { outcome, result, reason: options.reason, by };
}

function ttl(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LEASE_TTL_MS;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new CliError(`--lease-ttl must be a positive number of milliseconds, got "${text}"`);
  return value;
}

function defaultName(): string {
  try {
    return process.env.USER || userInfo().username || "cli";
  } catch {
    return "cli";
  }
}

function describe(run: RecoveredRun): string {
  const detail = run.pause ? run.pause.message : (run.error ?? "");
  return `${run.outcome.padEnd(8)} ${run.runId}${detail ? `  ${detail}` : ""}`;
}

/** Resumes the root of `runId` under a lease and prints how it ended. */
async function resumeAfterDecision(store: PostgresStore, runId: string, options: DecisionOptions, decided: Record<string, unknown>): Promise<void> {
  const { root, resumed, run } = await resumeRoot(store, await loadRegistry(demoRegistry(), options.config), runId, {
    holder: defaultHolder(),
    ttlMs: ttl(options.leaseTtl),
    waker: new PostgresWaker(store),
  });
  if (options.json) return printJson({ ...decided, resumed, run });
  printLine(`${describe(resumed)}${resumed.outcome === "complete" && run ? `: ${(await finalText(store, root)) ?? ""}` : ""}`);
  if (resumed.outcome === "failed") process.exitCode = EXIT_CHECK_FAILED;
}

async function finalText(store: PostgresStore, runId: string): Promise<string | undefined> {
  const record = await store.record(runId, "run:complete");
  const text = (record?.payload as { value?: { text?: unknown } } | undefined)?.value?.text;
  return typeof text === "string" ? text : undefined;
}

export function registerRecovery(program: Command): void {
  registerRecover(program);
  registerApprove(program);
  registerAnswer(program);
  registerResolve(program);
}

/** `recover`: re-drives every unfinished run an agent wrote. */
function registerRecover(program: Command): void {
  common(
    program
      .command("recover")
      .description("re-drive every unfinished run an agent wrote (a pause counts as recovered); exit 1 when a run failed")
      .option("--lease-ttl <ms>", `lease each run this long, renewed while it is driven (default ${DEFAULT_LEASE_TTL_MS})`)
      .option("--include-imported", "drive imported runs too (skipped by default: their tools would run for real)")
      .option(...CONFIG_OPTION),
  ).action(async (options: RecoverOptions) => {
    const ttlMs = ttl(options.leaseTtl);
    await withStore(options, async (store) => {
      const result = await recoverWithRegistry(store, await loadRegistry(demoRegistry(), options.config), {
        ttlMs,
        waker: new PostgresWaker(store),
        includeImported: options.includeImported === true,
        onProgress: (run) => {
          if (!options.json) printLine(describe(run));
        },
      });
      if (options.json) {
        printJson({
          n: result.n,
          summary: recoveryCounts(result.runs),
          runs: result.runs,
          error: result.error ? { code: result.error.code, message: result.error.message } : null,
        });
      } else {
        printLine(recoverySentence(result));
      }
      if (result.error) process.exitCode = EXIT_CHECK_FAILED;
    });
  });
}

/** `approve <run>`: approves or denies the call a paused run waits on. */
function registerApprove(program: Command): void {
  common(
    program
      .command("approve <run>")
      .description("approve (or --deny) the tool call a paused run waits on, then resume it")
      .option("--deny", "deny the call: the model gets an error result and goes on")
      .option("--by <name>", "who decides (default: the user name)")
      .option("--reason <text>", "why, recorded with the decision")
      .option("--lease-ttl <ms>", `lease the run this long while it is resumed (default ${DEFAULT_LEASE_TTL_MS})`)
      .option(...CONFIG_OPTION),
  ).action(async (runId: string, options: DecisionOptions) => {
    await withStore(options, async (store) => {
      const decided = await approve(store, runId, { approved: !options.deny, by: options.by ?? defaultName(), reason: options.reason });
      if (!decided.created) throw new CliError(`run "${runId}" was already decided by ${decided.record.payload.by} at ${decided.record.payload.at}`);
      if (!options.json) printLine(`${options.deny ? "denied" : "approved"} ${decided.record.payload.toolName} in ${decided.runId} (by ${decided.record.payload.by})`);
      await resumeAfterDecision(store, runId, options, { decision: decided.record.payload, runId: decided.runId });
    });
  });
}

/** `answer <run> <text>`: answers a paused run's question. */
function registerAnswer(program: Command): void {
  common(
    program
      .command("answer <run> <text>")
      .description("answer the question a paused run asked (an interrupt), then resume it")
      .option("--by <name>", "who answers (default: the user name)")
      .option("--lease-ttl <ms>", `lease the run this long while it is resumed (default ${DEFAULT_LEASE_TTL_MS})`)
      .option(...CONFIG_OPTION),
  ).action(async (runId: string, text: string, options: DecisionOptions) => {
    await withStore(options, async (store) => {
      const decided = await answer(store, runId, text, { by: options.by ?? defaultName() });
      if (!decided.created) throw new CliError(`run "${runId}" was already answered by ${decided.record.payload.by}`);
      if (!options.json) printLine(`answered ${decided.runId}: ${text}`);
      await resumeAfterDecision(store, runId, options, { answer: decided.record.payload, runId: decided.runId });
    });
  });
}

/** `resolve <run>`: says how a call of unknown outcome ended. */
function registerResolve(program: Command): void {
  common(
    program
      .command("resolve <run>")
      .description("say how a call whose outcome was unknown ended (the run halted), after checking downstream; then resume the run")
      .option("--succeeded", "it took effect: record --result as its result and go on (it does not run again)")
      .option("--result <json>", "with --succeeded: the call's result, as JSON (default null)")
      .option("--failed", "it did not take effect: the model gets an error result (with --reason) and goes on")
      .option("--retry", "it did not take effect: run it once more, with the same idempotency key")
      .option("--reason <text>", "why, recorded with the resolution")
      .option("--by <name>", "who resolves (default: the user name)")
      .option("--lease-ttl <ms>", `lease the run this long while it is resumed (default ${DEFAULT_LEASE_TTL_MS})`)
      .option(...CONFIG_OPTION),
  ).action(async (runId: string, options: ResolveOptions) => {
    const resolution = resolutionOf(options, options.by ?? defaultName());
    await withStore(options, async (store) => {
      const decided = await resolveHalt(store, runId, resolution);
      if (!decided.created) throw new CliError(`run "${runId}" was already resolved by ${decided.record.payload.by}`);
      if (!options.json) printLine(`resolved ${decided.record.name} in ${decided.runId}: ${resolution.outcome} (by ${decided.record.payload.by})`);
      await resumeAfterDecision(store, runId, options, { resolution: decided.record.payload, runId: decided.runId });
    });
  });
}
