/**
 * The regression demo: order-123 replayed under demo/v2 (the first divergence is the chargeCard
 * decision: $5000 instead of $500), and chat-42, a turn answered from a recalled memory, with its
 * memory-off replay (stripMemoryContext), whose answer changes. Written by the real loop.
 */
import { replayRun } from "../regression/replay-run";
import { assistantAgent, rememberDemoMemories } from "./chat";
import { demoRegistry } from "./registry";
import type { DemoRun } from "./types";

export const REGRESSION_RUNS: DemoRun[] = [
  {
    runId: "order-123~v2",
    about: "order-123 replayed under demo/v2: diverges at the chargeCard decision ($5000, not $500)",
    write: (store) => replayRun({ journal: store, runId: "order-123", model: "demo/v2", newRunId: "order-123~v2", registry: demoRegistry() }),
  },
  {
    runId: "chat-42",
    about: "a chat turn answered from a recalled memory (turn:0:memctx records what was injected)",
    write: async (store) => {
      await rememberDemoMemories(store);
      return assistantAgent(store).run("chat-42", "What is my dog's name?");
    },
  },
  {
    runId: "chat-42~no-memory",
    about: "chat-42 replayed with stripMemoryContext: without the recalled memory the answer changes",
    write: (store) => replayRun({ journal: store, runId: "chat-42", model: "demo/v1", stripMemoryContext: true, newRunId: "chat-42~no-memory", registry: demoRegistry() }),
  },
];
