/**
 * Memory and provenance on MemStore, PGlite and the server: the memory bank, the recall rule, the
 * loop's `turn:0:memctx` record, and replays with and without the memory context (chat-42).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "@/lib/agent/agent";
import type { AgentMemory, MemoryContextPayload } from "@/lib/agent/memory";
import type { HeaderPayload } from "@/lib/agent/payloads";
import { isPause } from "@/lib/agent/pauses";
import { tool } from "@/lib/agent/tool";
import { CHAT_SCOPE, CHAT_WORKING_MEMORY } from "@/lib/demo/chat";
import { CHAT_SYSTEM } from "@/lib/demo/chat-script";
import { demoModel } from "@/lib/demo/models";
import { demoRegistry } from "@/lib/demo/registry";
import { scriptedModel } from "@/lib/agent/scripted";
import { isBacktrackError } from "@/lib/journal/errors";
import type { Journal } from "@/lib/journal/ports";
import { diffRuns } from "@/lib/regression/diff-runs";
import { memoryBankFor, memoryId } from "@/lib/memory/banks";
import { rankMemories, recallMemory, RECALLED_HEADING } from "@/lib/memory/recall";
import { replayRun } from "@/lib/regression/replay-run";
import { STORE_KINDS } from "../helpers/databases";
import { storedRecords, writeDemoRuns } from "./helpers";

async function memctx(store: Journal, runId: string): Promise<MemoryContextPayload> {
  const record = await store.record(runId, "turn:0:memctx");
  expect(record?.kind).toBe("signal");
  return record?.payload as MemoryContextPayload;
}

describe("the recall rule", () => {
  const memories = [
    { id: "new", scope: "s", text: "The invoice for order 9 was paid in full.", createdAt: "2026-11-02T00:00:00.000Z" },
    { id: "dog", scope: "s", text: "Ada's dog is named Biscuit.", createdAt: "2026-11-01T00:00:00.000Z" },
    { id: "old", scope: "s", text: "Order 9 shipped; its invoice is attached.", createdAt: "2026-10-01T00:00:00.000Z" },
  ];

  it("scores shared words (3+ letters, no stop words), best first, newest first on ties, within the limit", () => {
    expect(rankMemories(memories, "What is my dog's name?")).toEqual([{ id: "dog", text: "Ada's dog is named Biscuit.", score: 1 }]);
    expect(rankMemories(memories, "Was the invoice for order 9 paid?").map((memory) => [memory.id, memory.score])).toEqual([
      ["new", 3],
      ["old", 2],
    ]);
    expect(rankMemories(memories, "Where is the invoice?").map((memory) => memory.id)).toEqual(["new", "old"]);
    expect(rankMemories(memories, "Where is the invoice?", { limit: 1 }).map((memory) => memory.id)).toEqual(["new"]);
    expect(rankMemories(memories, "Was the invoice for order 9 paid?", { minScore: 3 }).map((memory) => memory.id)).toEqual(["new"]);
    expect(rankMemories(memories, "Tell me what you can about this.")).toEqual([]);
  });
});

describe.each(STORE_KINDS)("memory and provenance: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  const registry = demoRegistry();

  beforeAll(async () => {
    store = await kind.open();
    await writeDemoRuns(store, "order-123", "chat-42");
  });
  afterAll(async () => {
    await store.close();
  });

  it("keeps memories per scope, newest first, one row per remembered text", async () => {
    const bank = memoryBankFor(store);
    expect(memoryBankFor(store)).toBe(bank);
    const first = await bank.remember("user:grace", "Grace wrote the first compiler.");
    const again = await bank.remember("user:grace", "Grace wrote the first compiler.");
    expect(again).toEqual(first);
    expect(first.id).toBe(memoryId("user:grace", "Grace wrote the first compiler."));
    await bank.remember("user:grace", "Grace kept a clock that ran backwards.", { id: "clock" });
    expect((await bank.list("user:grace")).map((memory) => memory.id)).toEqual(["clock", first.id]);
    expect((await bank.list(CHAT_SCOPE)).map((memory) => memory.text).sort()).toEqual([
      "Ada prefers aisle seats on long flights.",
      "Ada's dog is named Biscuit.",
      "Ada's favourite tea is Earl Grey.",
    ]);
    expect(await bank.forget("clock")).toBe(true);
    expect(await bank.forget("clock")).toBe(false);
    const bad = await bank.remember("user:grace", "  ").catch((error: unknown) => error);
    expect(isBacktrackError(bad, "bad_input")).toBe(true);
  });

  it("journals chat-42's memory context before the model turn: own messages, injected memories, working memory", async () => {
    const history = await store.history("chat-42");
    expect(history.map((record) => record.name)).toEqual(["run:start", "turn:0:memctx", "turn:0", "run:complete"]);
    const context = await memctx(store, "chat-42");
    expect(context).toMatchObject({ type: "memctx", turn: 0, incomingCount: 1, workingMemoryChars: CHAT_WORKING_MEMORY.length });
    expect(context.memories).toEqual([{ id: memoryId(CHAT_SCOPE, "Ada's dog is named Biscuit."), text: "Ada's dog is named Biscuit.", score: 1 }]);
    expect(context.composed).toEqual([{ role: "user", content: `${RECALLED_HEADING}\n- Ada's dog is named Biscuit.` }]);
    expect(context.system).toBe(`${CHAT_SYSTEM}\n\nWorking memory:\n${CHAT_WORKING_MEMORY}`);
    expect(((await store.record("chat-42", "run:start"))?.payload as HeaderPayload).input).toBe("What is my dog's name?");
    expect((await store.record("chat-42", "run:complete"))?.payload).toMatchObject({ value: { text: "Your dog is called Biscuit." } });
  });

  it("strips the memory context: only the turn's own message is re-asked, the answer changes, and the result discloses the kept system text", async () => {
    const before = await storedRecords(store, "chat-42");
    const replayed = await replayRun({ journal: store, runId: "chat-42", model: "demo/v1", registry, stripMemoryContext: true });
    expect(replayed.result?.text).toBe("I don't know your dog's name yet; tell me and I will remember it.");
    expect(replayed.memoryStripped).toMatchObject({
      keptMessages: 1,
      droppedMessages: 1,
      droppedMemoryIds: [memoryId(CHAT_SCOPE, "Ada's dog is named Biscuit.")],
      systemTextEdited: false,
      workingMemoryChars: CHAT_WORKING_MEMORY.length,
      workingMemoryRetained: true,
    });
    const context = await memctx(store, replayed.newRunId);
    expect(context).toMatchObject({ composed: [], memories: [], strippedFrom: "chat-42", workingMemoryChars: CHAT_WORKING_MEMORY.length, incomingCount: 1 });
    expect(context.system).toContain(CHAT_WORKING_MEMORY);
    const diff = await diffRuns(store, "chat-42", replayed.newRunId);
    expect(diff.divergentAt).toBe(0);
    expect(diff.steps[0]?.detail).toMatchObject({ textA: "Your dog is called Biscuit.", textB: "I don't know your dog's name yet; tell me and I will remember it." });
    expect(await storedRecords(store, "chat-42")).toBe(before);

    const newPrompt = await replayRun({ journal: store, runId: "chat-42", model: "demo/v2", registry, stripMemoryContext: true, system: CHAT_SYSTEM });
    expect(newPrompt.memoryStripped).toMatchObject({ workingMemoryChars: 0, workingMemoryRetained: false, systemTextEdited: false });
    expect(newPrompt.result?.text).toBe("I'm not sure what your dog is called.");
  });

  it("replays with the recorded memory context, not a fresh recall, unless told to strip it", async () => {
    const bank = memoryBankFor(store);
    const dog = memoryId(CHAT_SCOPE, "Ada's dog is named Biscuit.");
    expect(await bank.forget(dog)).toBe(true);
    try {
      const replayed = await replayRun({ journal: store, runId: "chat-42", model: "demo/v2", registry });
      expect(replayed.result?.text).toBe("Biscuit! That is your dog's name.");
      expect(replayed.memoryStripped).toBeUndefined();
      expect(await memctx(store, replayed.newRunId)).toMatchObject({ frozenFrom: "chat-42", memories: [{ id: dog }] });
      // A live run of the same agent now recalls nothing about the dog.
      const live = await registry.agent("assistant", store).run("chat-after-forget", "What is my dog's name?");
      expect(live.content).toEqual([{ type: "text", text: "I don't know your dog's name yet; tell me and I will remember it." }]);
      expect((await memctx(store, "chat-after-forget")).memories).toEqual([]);
    } finally {
      await bank.remember(CHAT_SCOPE, "Ada's dog is named Biscuit.");
    }
  });

  it("refuses to strip a run without usable provenance, and writes nothing", async () => {
    const none = await replayRun({ journal: store, runId: "order-123", model: "demo/v1", registry, stripMemoryContext: true, newRunId: "order-123-stripped" }).catch(
      (error: unknown) => error,
    );
    expect(isBacktrackError(none, "no_memory_context")).toBe(true);
    expect((none as { runId: string }).runId).toBe("order-123");
    expect(await store.run("order-123-stripped")).toBeUndefined();

    await store.append({
      runId: "broken-memctx",
      name: "run:start",
      kind: "header",
      payload: { input: "hi", agent: "assistant", model: "demo/v1", tools: [], system: CHAT_SYSTEM },
    });
    await store.append({ runId: "broken-memctx", name: "turn:0:memctx", kind: "signal", payload: { type: "memctx", incomingCount: 0 } });
    const broken = await replayRun({ journal: store, runId: "broken-memctx", model: "demo/v1", registry, stripMemoryContext: true }).catch((error: unknown) => error);
    expect(isBacktrackError(broken, "no_memory_context")).toBe(true);
    expect((broken as Error).message).toMatch(/malformed/);
  });

  it("strips memory that was frozen into the input itself: keeps the trailing incomingCount messages", async () => {
    const runId = "composed-input";
    const input = [
      { role: "user" as const, content: "Earlier you said: Ada's dog is named Biscuit." },
      { role: "user" as const, content: "Noted." },
      { role: "user" as const, content: "What is my dog's name?" },
    ];
    await store.append({ runId, name: "run:start", kind: "header", payload: { input, agent: "assistant", model: "demo/v1", tools: [], system: CHAT_SYSTEM } });
    await store.append({
      runId,
      name: "turn:0:memctx",
      kind: "signal",
      payload: { type: "memctx", turn: 0, incomingCount: 1, composed: [], memories: [{ id: "m1", text: "x", score: 1 }], workingMemoryChars: 0 },
    });
    const replayed = await replayRun({ journal: store, runId, model: "demo/v1", registry, stripMemoryContext: true });
    expect(replayed.memoryStripped).toMatchObject({ keptMessages: 1, droppedMessages: 2, droppedMemoryIds: ["m1"], workingMemoryRetained: false });
    expect(((await store.record(replayed.newRunId, "run:start"))?.payload as HeaderPayload).input).toEqual([input[2]]);
    expect(replayed.result?.text).toBe("I don't know your dog's name yet; tell me and I will remember it.");
  });

  it("recalls once per run: a resumed run reads its recorded memory context back", async () => {
    let composed = 0;
    const recall = recallMemory({ bank: memoryBankFor(store), scope: CHAT_SCOPE });
    const counting: AgentMemory = {
      compose: (request) => {
        composed += 1;
        return recall.compose(request);
      },
    };
    const book = tool({ name: "bookSeat", description: "Book a seat.", input: z.object({ seat: z.string() }), needsApproval: true, execute: ({ seat }) => ({ booked: seat }) });
    const agent = new Agent({
      name: "traveller",
      store,
      tools: [book],
      memory: counting,
      model: scriptedModel("travel", [{ toolCalls: [{ name: "bookSeat", args: { seat: "12C" } }] }, { text: "Booked an aisle seat." }]),
    });
    const paused = await agent.run("travel-1", "Book my usual seat on long flights.").catch((error: unknown) => error);
    expect(isPause(paused)).toBe(true);
    await memoryBankFor(store).remember(CHAT_SCOPE, "Ada flies long haul every month.");
    await store.append({
      runId: "travel-1",
      name: "turn:0:call:0:approval",
      kind: "approval",
      payload: { toolCallId: "x", toolName: "bookSeat", approved: true, by: "ada", at: new Date().toISOString() },
    });
    expect((await agent.run("travel-1")).content).toEqual([{ type: "text", text: "Booked an aisle seat." }]);
    expect(composed).toBe(1);
    expect((await memctx(store, "travel-1")).memories.map((memory) => memory.text)).toEqual(["Ada prefers aisle seats on long flights."]);
  });

  it("answers differently under demo/v2 on the memory demo", async () => {
    const replayed = await replayRun({ journal: store, runId: "chat-42", model: demoModel("v2"), registry });
    expect(replayed.result?.text).toBe("Biscuit! That is your dog's name.");
    expect((await diffRuns(store, "chat-42", replayed.newRunId)).summary).toEqual({ same: 0, changed: 1, missing: 0, added: 0 });
  });
});
