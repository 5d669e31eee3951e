/**
 * Deterministic replay (the seed's agent.Replay) and the durable event projection (ReplayEvents),
 * on every store.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "@/lib/agent/agent";
import { NoRecordedOutputError, replay } from "@/lib/agent/replay";
import { tool } from "@/lib/agent/tool";
import { billingAgent, plannerAgent, researcherAgent } from "@/lib/demo/agents";
import { scriptedModel } from "@/lib/agent/scripted";
import { chargeCard, researchTool } from "@/lib/demo/tools";
import { RunNotFoundError } from "@/lib/journal/errors";
import { MemStore } from "@/lib/journal/memory-store";
import type { Journal } from "@/lib/journal/ports";
import { projectEvents, replayEvents } from "@/lib/inspect/events";
import { STORE_KINDS } from "../helpers/databases";

describe.each(STORE_KINDS)("replay and events: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  beforeAll(async () => {
    store = await kind.open();
    await billingAgent(store).run("order-123", "Please charge order 123.");
    await plannerAgent(store).run("trip-42", "Plan my trip from Lisbon to Berlin on Friday.");
  });
  afterAll(async () => {
    await store.close();
  });

  it("re-executes a recorded run offline against a fresh store: identical final answer", async () => {
    const original = (await store.record("order-123", "run:complete"))?.payload as { value: { text: string } };
    const model = await replay(store, "order-123");
    expect(model.id).toBe("recorded:order-123");
    const fresh = new MemStore();
    const replayed = new Agent({ name: "billing", model, store: fresh, tools: [chargeCard] });
    const message = await replayed.runResult("order-123", "Please charge order 123.");
    expect(message.text).toBe(original.value.text);
    expect((await fresh.history("order-123")).map((record) => record.kind)).toEqual((await store.history("order-123")).map((record) => record.kind));
  });

  it("replays a whole tree: the sub-agent's turns come from the recording too", async () => {
    const model = await replay(store, "trip-42");
    const fresh = new MemStore();
    let liveModelCalls = 0;
    const counting = scriptedModel("live", () => {
      liveModelCalls += 1;
      return { text: "live" };
    });
    // The child agent is built with a live model; the replay model drives the whole tree instead.
    const planner = new Agent({ name: "planner", model, store: fresh, tools: [researchTool(() => researcherAgent(fresh, counting))] });
    const result = await planner.runResult("trip-42", "Plan my trip from Lisbon to Berlin on Friday.");
    expect(result.text).toBe("Plan: Cheapest: FR 8362 at 19:30 for €96. Then a train to the hotel.");
    expect(liveModelCalls).toBe(0);
    expect((await fresh.run("trip-42.t0c0"))?.status).toBe("complete");
  });

  it("fails with NoRecordedOutputError when the replayed loop wants one turn more than recorded", async () => {
    const model = await replay(store, "order-123");
    const fresh = new MemStore();
    // The tool changed: it now delegates to a sub-agent, whose model turn the recording never had.
    const changed = tool({
      name: "chargeCard",
      description: "charge through the payments agent",
      input: z.object({ orderId: z.string(), amount: z.number() }),
      execute: async (args, ctx) =>
        (await ctx.runAgent(new Agent({ name: "payments", model: scriptedModel("p", () => ({ text: "ok" })), store: fresh }), JSON.stringify(args))).text,
    });
    const error = await new Agent({ name: "billing", model, store: fresh, tools: [changed] }).run("order-123", "Please charge order 123.").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NoRecordedOutputError);
    expect(error).toMatchObject({ code: "no_recorded_output", runId: "order-123", recordedTurns: 2 });
    // Asked directly for a third turn, the replay model refuses too.
    const direct = await replay(store, "order-123");
    const request = { messages: [], tools: [] };
    for (let turn = 0; turn < 2; turn += 1) for await (const part of direct.stream(request)) void part;
    await expect(
      (async () => {
        for await (const part of direct.stream(request)) void part;
      })(),
    ).rejects.toBeInstanceOf(NoRecordedOutputError);
  });

  it("refuses to replay an unknown run", async () => {
    await expect(replay(store, "no-such-run")).rejects.toBeInstanceOf(RunNotFoundError);
    await expect(replayEvents(store, "no-such-run")).rejects.toBeInstanceOf(RunNotFoundError);
  });

  it("projects the durable events: AssistantTurn (replayed) and ToolCompleted, in journal order", async () => {
    const events = await replayEvents(store, "order-123");
    expect(events.map((event) => event.type)).toEqual(["AssistantTurn", "ToolCompleted", "AssistantTurn"]);
    expect(events[0]).toMatchObject({ type: "AssistantTurn", replayed: true, turn: 0 });
    expect(events[1]).toMatchObject({ type: "ToolCompleted", toolUseId: "demo-v1-0-0", name: "chargeCard", isError: false, result: { charged: 500, orderId: "123" } });
    expect(
      projectEvents([
        { runId: "x", seq: 0, name: "odd", kind: "telemetry", payload: null, createdAt: "" },
        { runId: "x", seq: 1, name: "turn:0", kind: "model", payload: null, createdAt: "" },
      ]),
    ).toEqual([]);
  });

  it("gives identical events before a crash and after the resume", async () => {
    let failing = true;
    const make = () =>
      new Agent({
        name: "billing",
        store,
        tools: [chargeCard],
        model: scriptedModel("crashy", (request, turn) => {
          if (turn === 1 && failing) throw new Error("crash");
          return turn === 0 ? { toolCalls: [{ name: "chargeCard", args: { orderId: "77", amount: 120 } }] } : { text: "charged 77" };
        }),
      });
    await make()
      .run("crash-events", "charge order 77")
      .catch(() => undefined);
    const before = await replayEvents(store, "crash-events");
    failing = false;
    await make().run("crash-events");
    const after = await replayEvents(store, "crash-events");
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.length).toBe(before.length + 1);
    const uninterrupted = new MemStore();
    await new Agent({
      name: "billing",
      store: uninterrupted,
      tools: [chargeCard],
      model: scriptedModel("crashy", (request, turn) => (turn === 0 ? { toolCalls: [{ name: "chargeCard", args: { orderId: "77", amount: 120 } }] } : { text: "charged 77" })),
    }).run("crash-events", "charge order 77");
    expect(after).toEqual(await replayEvents(uninterrupted, "crash-events"));
  });
});
