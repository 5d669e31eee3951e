/**
 * The live demo (`backtrack demo --live`): a scripted auditor that takes a step every
 * `intervalMs` (each model turn and each tool call waits that long), so that someone watching
 * the inspector sees the run grow. It runs the real loop and writes wherever the store points,
 * including an embedded database held by a running inspector (through its owner process).
 */
import { Agent } from "../agent/agent";
import type { AgentEvent } from "../agent/events";
import type { RunResult } from "../agent/agent";
import { tool } from "../agent/tool";
import type { Journal } from "../journal/ports";
import { demoModel } from "./models";
import { checkAccount } from "./tools";
import { delay } from "../agent/delay";

export interface LiveDemoOptions {
  runId?: string;
  /** Accounts to audit: two per model turn. Default 20. */
  accounts?: number;
  /** Milliseconds per step. Default 500. */
  intervalMs?: number;
  onEvent?: (event: AgentEvent) => void;
  signal?: AbortSignal;
}

export const LIVE_DEFAULTS = { accounts: 20, intervalMs: 500 };

/** live-20261129-185209: a new id per start, sortable by time. */
export function liveRunId(now: Date = new Date()): string {
  return `live-${now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15)}`;
}

export function liveAgent(store: Journal, intervalMs: number = LIVE_DEFAULTS.intervalMs): Agent {
  // The demo's checkAccount, slowed down: same name, so the scripted auditor drives it.
  const slowCheck = tool({
    ...checkAccount,
    execute: async (args, ctx) => {
      await delay(intervalMs, ctx.signal);
      return checkAccount.execute(args, ctx);
    },
  });
  return new Agent({ name: "live-auditor", model: demoModel("v1", { delayMs: intervalMs }), store, tools: [slowCheck], maxTurns: 400, system: "You audit accounts." });
}

export async function runLiveDemo(store: Journal, options: LiveDemoOptions = {}): Promise<RunResult & { runId: string }> {
  const runId = options.runId ?? liveRunId();
  const accounts = options.accounts ?? LIVE_DEFAULTS.accounts;
  const result = await liveAgent(store, options.intervalMs).runResult(runId, `Audit ${accounts} accounts for anomalies.`, {
    onEvent: options.onEvent,
    signal: options.signal,
  });
  return { ...result, runId };
}
