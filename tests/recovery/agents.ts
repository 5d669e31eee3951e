/** Small agents for the pause, recovery and saga tests: scripted models calling real tools. */
import { Agent } from "@/lib/agent/agent";
import { tool, type AnyTool } from "@/lib/agent/tool";
import type { Journal } from "@/lib/journal/ports";
import { scriptedModel, toolResults } from "@/lib/agent/scripted";
import type { JournalBase } from "@/lib/journal/base";
import type { PostgresStore } from "@/lib/store";
import { z } from "zod";
import type { StoreKind } from "../helpers/databases";

export interface PlannedCall {
  name: string;
  args: unknown;
}

/**
 * An agent whose model makes the planned calls, one turn each, then answers with `finish` of the
 * results (each `name=result` or `name!error`).
 */
export function plannedAgent(store: Journal, tools: AnyTool[], calls: PlannedCall[], options: { name?: string; maxTurns?: number } = {}): Agent {
  const model = scriptedModel(`planned/${options.name ?? "agent"}`, (request, turn) => {
    const call = calls[turn];
    if (call) return { toolCalls: [call] };
    const results = toolResults(request.messages).map((entry) => `${entry.toolName}${entry.isError ? "!" : "="}${JSON.stringify(entry.result)}`);
    return { text: `done: ${results.join("; ")}` };
  });
  return new Agent({ name: options.name ?? "planned", model, store, tools, maxTurns: options.maxTurns });
}

/**
 * A parent whose `delegate` tool runs a child agent that calls `refund` for order 5 at $500: a
 * pause in the child (an approval) names the child's run and pauses the parent.
 */
export function delegatingParent(store: Journal, refund: AnyTool): () => Agent {
  const child = () => plannedAgent(store, [refund], [{ name: "refund", args: { orderId: "5", amount: 500 } }], { name: "child" });
  const delegate = tool({
    name: "delegate",
    description: "Hand the refund to the child agent.",
    input: z.object({}),
    execute: async (_args, ctx) => ({ child: (await ctx.runAgent(child(), "Refund order 5.")).text }),
  });
  return () => plannedAgent(store, [delegate], [{ name: "delegate", args: {} }], { name: "parent" });
}

/**
 * One store per suite, emptied before each test: a PGlite instance costs seconds to start, an
 * empty table costs a TRUNCATE. MemStore is simply made anew.
 */
export function reusableStore<S extends Journal & JournalBase & { close(): Promise<void> }>(kind: StoreKind) {
  let store: S | undefined;
  return {
    get current(): S {
      if (!store) throw new Error("the store is not open yet");
      return store;
    },
    async reset(): Promise<S> {
      if (kind.name === "memory") {
        await store?.close();
        store = (await kind.open()) as S;
        return store;
      }
      store ??= (await kind.open()) as S;
      await (store as unknown as PostgresStore).client.exec("TRUNCATE runs, records, leases, timers");
      store.faults = undefined;
      store.restart();
      return store;
    },
    async close(): Promise<void> {
      await store?.close();
      store = undefined;
    },
  };
}
