/**
 * The demo runs, written by running the real agent loop on scripted models (never by inserting
 * rows). Each has a fixed id; writing the demo again leaves complete runs alone.
 */
import { isPause } from "../agent/pauses";
import type { Journal } from "../journal/ports";
import { auditorAgent, billingAgent, plannerAgent, reporterAgent } from "./agents";
import { writeDemoSessions } from "./ticket-booking";
import { RECOVERY_RUNS } from "./recovery-runs";
import { REGRESSION_RUNS } from "./regression-runs";
import type { DemoRun } from "./types";

const DEMO_RUNS: DemoRun[] = [
  {
    runId: "order-123",
    about: "charge order 123: LLM → chargeCard → LLM",
    write: (store) => billingAgent(store).run("order-123", "Please charge order 123."),
  },
  {
    runId: "order-404",
    about: "a tool that fails: chargeCard on an unknown order",
    write: (store) => billingAgent(store).run("order-404", "Please charge order 404."),
  },
  {
    runId: "report-7",
    about: "a tool with user-defined durable steps (fetch-ledger, sum-ledger)",
    write: (store) => reporterAgent(store).run("report-7", "Summarise the October ledger."),
  },
  {
    runId: "trip-42",
    about: "a parent run whose research tool runs a researcher sub-agent",
    write: (store) => plannerAgent(store).run("trip-42", "Plan my trip from Lisbon to Berlin on Friday."),
  },
  {
    runId: "long-audit",
    about: "a long run: 300 model turns, 600 tool calls, 1,503 records",
    write: (store) => auditorAgent(store).run("long-audit", "Audit 600 accounts for anomalies."),
  },
];

/** Every demo run, in writing order. Areas add their runs here (lib/demo/<area>-runs.ts). */
export function demoRuns(): DemoRun[] {
  return [...DEMO_RUNS, ...RECOVERY_RUNS, ...REGRESSION_RUNS];
}

export interface DemoProgress {
  runId: string;
  about: string;
  state: "written" | "kept" | "paused";
}

/** Writes every demo run that is not complete yet. Pauses are expected for some demo runs. */
export async function writeDemo(store: Journal, onProgress?: (progress: DemoProgress) => void): Promise<DemoProgress[]> {
  const done: DemoProgress[] = [];
  for (const run of demoRuns()) {
    const summary = await store.run(run.runId);
    let state: DemoProgress["state"] = "kept";
    if (summary?.status !== "complete") {
      try {
        await run.write(store);
        state = "written";
      } catch (error) {
        if (!isPause(error)) throw error;
        state = "paused";
      }
    }
    const progress = { runId: run.runId, about: run.about, state };
    done.push(progress);
    onProgress?.(progress);
  }
  // Sessions (the ticket-booking session) live beside the runs, on a database store only.
  await writeDemoSessions(store);
  return done;
}
