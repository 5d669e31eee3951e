/** Small agents for the pause, recovery and saga tests: scripted models calling real tools. */
import { Agent } from "@/lib/agent/agent";
import type { AnyTool } from "@/lib/agent/tool";
import type { Journal } from "@/lib/journal/ports";
import { scriptedModel, toolResults } from "@/lib/demo/scripted";
import type { JournalBase } from "@/lib/journal/base";
import type { PostgresStore } from "@/lib/store";
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
