/**
 * The agent loop on every store: what it journals, how it resumes, how tools are guarded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "@/lib/agent/agent";
import { InputMismatchError, MaxTurnsError } from "@/lib/agent/errors";
import type { AgentEvent } from "@/lib/agent/events";
import { isPause, PendingApproval, ResumeHalt } from "@/lib/agent/pauses";
import type { ToolResultPayload } from "@/lib/agent/payloads";
import { tool } from "@/lib/agent/tool";
import { billingAgent, plannerAgent } from "@/lib/demo/agents";
import { scriptedModel } from "@/lib/agent/scripted";
import type { Journal } from "@/lib/journal/ports";
import { STORE_KINDS } from "../helpers/databases";

function counted<T>(fn: (args: T) => unknown) {
  const calls: T[] = [];
  return { calls, fn: (args: T) => (calls.push(args), fn(args)) };
}

describe.each(STORE_KINDS)("agent loop: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  beforeAll(async () => {
    store = await kind.open();
  });
  afterAll(async () => {
    await store.close();
  });

  it("journals order-123 as the seed describes: input, LLM, attempt, tool, LLM, complete", async () => {
    const result = await billingAgent(store).runResult("order-123", "Please charge order 123.");
    expect(result.text).toBe("Charged $500.00 for order 123 (receipt rcpt-123-500).");
    const history = await store.history("order-123");
    expect(history.map((record) => [record.name, record.kind])).toEqual([
      ["run:start", "header"],
      ["turn:0", "model"],
      ["turn:0:call:0:attempt", "attempt"],
      ["turn:0:call:0:result", "tool_result"],
      ["turn:1", "model"],
      ["run:complete", "value"],
    ]);
    expect(history[0]?.payload).toMatchObject({ input: "Please charge order 123.", agent: "billing", model: "demo/v1", tools: ["chargeCard"] });
    expect(history[3]?.payload).toMatchObject({ toolName: "chargeCard", args: { orderId: "123", amount: 500 }, result: { charged: 500 }, isError: false });
    expect(result.turns).toBe(2);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(await store.run("order-123")).toMatchObject({ status: "complete", agent: "billing", modelTurns: 2, toolCalls: 1 });
  });

  it("resumes from the journal: recorded turns and tool results are returned, not recomputed", async () => {
    let modelCalls = 0;
    const charge = counted(({ amount }: { amount: number }) => ({ charged: amount }));
    const build = () =>
      new Agent({
        name: "resumable",
        store,
        model: scriptedModel("counting", (request, turn) => {
          modelCalls += 1;
          return turn === 0 ? { toolCalls: [{ name: "charge", args: { amount: 7 } }] } : { text: "done" };
        }),
        tools: [tool({ name: "charge", description: "charge", input: z.object({ amount: z.number() }), execute: charge.fn })],
      });
    const first = await build().runResult("resume-1", "go");
    expect([modelCalls, charge.calls.length, first.turns]).toEqual([2, 1, 2]);
    const again = await build().runResult("resume-1");
    expect(again.text).toBe("done");
    expect([modelCalls, charge.calls.length, again.turns, again.usage.inputTokens]).toEqual([2, 1, 0, 0]);
    expect((await store.history("resume-1")).length).toBe(6);
  });

  it("resumes a run that failed mid-way without re-running finished tools", async () => {
    const charge = counted(() => ({ ok: true }));
    let failing = true;
    const agent = new Agent({
      name: "flaky",
      store,
      model: scriptedModel("flaky", (request, turn) => {
        if (turn === 1 && failing) throw new Error("model unavailable");
        return turn === 0 ? { toolCalls: [{ name: "charge", args: {} }] } : { text: "charged" };
      }),
      tools: [tool({ name: "charge", description: "charge", input: z.object({}), execute: charge.fn })],
    });
    await expect(agent.run("flaky-1", "go")).rejects.toThrow("model unavailable");
    expect(await store.run("flaky-1")).toMatchObject({ status: "failed", error: "model unavailable" });
    failing = false;
    expect((await agent.runResult("flaky-1")).text).toBe("charged");
    expect(charge.calls.length).toBe(1);
    expect(await store.run("flaky-1")).toMatchObject({ status: "complete", error: null });
  });

  it("halts on an attempt without a result (unknown outcome) unless the tool is idempotent", async () => {
    const model = () => scriptedModel("halting", (request, turn) => (turn === 0 ? { toolCalls: [{ name: "send", args: { to: "ada" } }] } : { text: "sent" }));
    const send = counted(() => ({ sent: true }));
    const make = (idempotent: boolean) =>
      new Agent({
        name: "mailer",
        store,
        model: model(),
        tools: [tool({ name: "send", description: "send", input: z.object({ to: z.string() }), execute: send.fn, safety: { idempotencyKey: idempotent } })],
      });
    // A crash between the attempt and the result: the journal holds an attempt and nothing after it.
    for (const runId of ["halt-1", "halt-2"]) {
      await store.append({ runId, name: "run:start", kind: "header", payload: { input: "mail ada", agent: "mailer", model: "halting", tools: ["send"] } });
      await store.append({
        runId,
        name: "turn:0",
        kind: "model",
        payload: {
          message: { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "send", args: { to: "ada" } }] },
          usage: { inputTokens: 1, outputTokens: 1 },
          model: "halting",
          durationMs: 1,
        },
      });
      await store.append({ runId, name: "turn:0:call:0:attempt", kind: "attempt", payload: { toolCallId: "c1", toolName: "send", args: { to: "ada" }, idempotencyKey: "k" } });
    }
    const halted = await make(false)
      .run("halt-1")
      .catch((error: unknown) => error);
    expect(halted).toBeInstanceOf(ResumeHalt);
    expect(isPause(halted)).toBe(true);
    expect(send.calls.length).toBe(0);
    expect(await store.run("halt-1")).toMatchObject({ status: "paused", pause: { reason: "halt", name: "turn:0:call:0:attempt", toolName: "send" } });

    const keys: string[] = [];
    const retrying = new Agent({
      name: "mailer",
      store,
      model: model(),
      tools: [
        tool({
          name: "send",
          description: "send",
          input: z.object({ to: z.string() }),
          safety: { idempotencyKey: true },
          execute: (args, ctx) => (keys.push(ctx.idempotencyKey), send.fn(args)),
        }),
      ],
    });
    expect((await retrying.runResult("halt-2")).text).toBe("sent");
    expect(send.calls.length).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{16}$/);
  });

  it("runs a read-only tool (effects: none) again after a crash between its attempt and its result", async () => {
    // A tool that only reads cannot repeat a side effect: halting for a person would be noise (the
    // demo's auditor halted so when a restart landed between checkAccount's attempt and result).
    const lookup = counted(() => ({ balance: 7 }));
    await store.append({ runId: "read-1", name: "run:start", kind: "header", payload: { input: "look", agent: "reader", model: "reading", tools: ["lookup"] } });
    await store.append({
      runId: "read-1",
      name: "turn:0",
      kind: "model",
      payload: {
        message: { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "lookup", args: { id: "a" } }] },
        usage: { inputTokens: 1, outputTokens: 1 },
        model: "reading",
        durationMs: 1,
      },
    });
    await store.append({
      runId: "read-1",
      name: "turn:0:call:0:attempt",
      kind: "attempt",
      payload: { toolCallId: "c1", toolName: "lookup", args: { id: "a" }, idempotencyKey: "k" },
    });
    const reader = new Agent({
      name: "reader",
      store,
      model: scriptedModel("reading", (request, turn) => (turn === 0 ? { toolCalls: [{ name: "lookup", args: { id: "a" } }] } : { text: "looked" })),
      tools: [tool({ name: "lookup", description: "lookup", effects: "none", input: z.object({ id: z.string() }), execute: lookup.fn })],
    });
    expect((await reader.runResult("read-1")).text).toBe("looked");
    expect(lookup.calls.length).toBe(1);
    expect(await store.run("read-1")).toMatchObject({ status: "complete" });
  });

  it("derives the same idempotency key for the same call on every try", async () => {
    const keys: string[] = [];
    const run = (runId: string) =>
      new Agent({
        name: "keys",
        store,
        model: scriptedModel("keys", (request, turn) => (turn === 0 ? { toolCalls: [{ name: "k", args: { b: 2, a: 1 } }] } : { text: "ok" })),
        tools: [tool({ name: "k", description: "k", input: z.object({ a: z.number(), b: z.number() }), execute: (args, ctx) => (keys.push(ctx.idempotencyKey), args) })],
      }).run(runId, "go");
    await run("keys-1");
    await run("keys-2");
    await store.append({ runId: "keys-3", name: "x", kind: "value", payload: null });
    expect(keys[0]).not.toBe(keys[1]); // a key is per run and call, not per argument value alone
    const { stableHash } = await import("@/lib/journal/canonical");
    expect(keys[0]).toBe(stableHash({ runId: "keys-1", call: "turn:0:call:0", tool: "k", args: { a: 1, b: 2 } }));
  });

  it("validates tool input with zod before execute, and reports unknown tools, as error results", async () => {
    const execute = counted(() => "never");
    const agent = new Agent({
      name: "strict",
      store,
      model: scriptedModel("strict", (request, turn) =>
        turn === 0
          ? {
              toolCalls: [
                { name: "typed", args: { amount: "lots" } },
                { name: "nope", args: {} },
              ],
            }
          : { text: "gave up" },
      ),
      tools: [tool({ name: "typed", description: "typed", input: z.object({ amount: z.number() }), execute: execute.fn })],
    });
    await agent.run("strict-1", "go");
    expect(execute.calls.length).toBe(0);
    const results = (await store.history("strict-1")).filter((record) => record.kind === "tool_result").map((record) => record.payload as ToolResultPayload);
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ toolName: "typed", isError: true });
    expect(JSON.stringify(results[0]?.result)).toContain("invalid input for typed");
    expect(results[1]).toMatchObject({ toolName: "nope", isError: true, result: { error: 'unknown tool "nope"' } });
    expect((await store.history("strict-1")).some((record) => record.kind === "attempt")).toBe(false);
  });

  it("records a throwing tool as an error result the model sees", async () => {
    const history = await (async () => {
      await billingAgent(store).run("order-404", "Please charge order 404.");
      return store.history("order-404");
    })();
    const result = history.find((record) => record.kind === "tool_result")?.payload as ToolResultPayload;
    expect(result).toMatchObject({ isError: true, result: { error: "order 404 not found" } });
    expect((history.at(-2)?.payload as { message: { content: Array<{ text?: string }> } }).message.content[0]?.text).toBe("I could not charge order 404: order 404 not found.");
  });

  it("pauses for approval, then runs an approved call or reports a denied one", async () => {
    const refund = counted(({ amount }: { amount: number }) => ({ refunded: amount }));
    const make = () =>
      new Agent({
        name: "refunds",
        store,
        model: scriptedModel("refunds", (request, turn) => (turn === 0 ? { toolCalls: [{ name: "refund", args: { amount: 900 } }] } : { text: "finished" })),
        tools: [tool({ name: "refund", description: "refund", input: z.object({ amount: z.number() }), needsApproval: ({ amount }) => amount > 100, execute: refund.fn })],
      });
    for (const runId of ["approve-1", "deny-1"]) {
      const paused = await make()
        .run(runId, "refund 900")
        .catch((error: unknown) => error);
      expect(paused).toBeInstanceOf(PendingApproval);
      expect(await store.run(runId)).toMatchObject({ status: "paused", pause: { reason: "approval", name: "turn:0:call:0:approval", toolName: "refund", args: { amount: 900 } } });
    }
    expect(refund.calls.length).toBe(0);
    const decide = (runId: string, approved: boolean) =>
      store.append({
        runId,
        name: "turn:0:call:0:approval",
        kind: "approval",
        payload: { toolCallId: "x", toolName: "refund", approved, by: "ops@example.com", at: new Date().toISOString() },
      });
    await decide("approve-1", true);
    await decide("deny-1", false);
    await make().run("approve-1");
    await make().run("deny-1");
    expect(refund.calls.length).toBe(1);
    const denied = (await store.record("deny-1", "turn:0:call:0:result"))?.payload as ToolResultPayload;
    expect(denied).toMatchObject({ isError: true, result: { error: "denied by ops@example.com" } });
  });

  it("journals user-defined durable steps inside a tool and replays them when the call runs again", async () => {
    let fetched = 0;
    const agent = new Agent({
      name: "stepper",
      store,
      model: scriptedModel("stepper", (request, turn) => (turn === 0 ? { toolCalls: [{ name: "report", args: {} }] } : { text: "reported" })),
      tools: [
        tool({
          name: "report",
          description: "report",
          input: z.object({}),
          safety: { idempotencyKey: true },
          execute: async (_args, ctx) => {
            const rows = await ctx.step("fetch", () => ((fetched += 1), [1, 2, 3]));
            return { total: rows.reduce((sum, row) => sum + row, 0) };
          },
        }),
      ],
    });
    // A crash after the step, before the call's result is journaled: the journal refuses that one write.
    let crashed = false;
    const crashing = new Proxy(store, {
      get(target, property, receiver) {
        if (property === "append") {
          return async (record: { name: string }) => {
            if (!crashed && record.name.endsWith(":result")) {
              crashed = true;
              throw new Error("process died");
            }
            return target.append(record as never);
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await expect(agent.run("steps-1", "go", { journal: crashing })).rejects.toThrow("process died");
    expect(await store.record("steps-1", "turn:0:call:0:step:fetch")).toMatchObject({ kind: "value", payload: { step: "fetch", value: [1, 2, 3] } });
    expect(await agent.run("steps-1")).toBeDefined();
    expect(fetched).toBe(1);
    expect((await store.record("steps-1", "turn:0:call:0:result"))?.payload).toMatchObject({ result: { total: 6 } });

    const reserved = new Agent({
      name: "reserved",
      store,
      model: scriptedModel("reserved", (request, turn) => (turn === 0 ? { toolCalls: [{ name: "bad", args: {} }] } : { text: "ok" })),
      tools: [tool({ name: "bad", description: "bad", input: z.object({}), execute: (_args, ctx) => ctx.step("run:complete", () => 1) })],
    });
    await reserved.run("reserved-1", "go");
    expect(JSON.stringify((await store.record("reserved-1", "turn:0:call:0:result"))?.payload)).toContain("reserved record name");
  });

  it("runs a sub-agent as a linked child run", async () => {
    const result = await plannerAgent(store).runResult("trip-1", "Plan my trip from Lisbon to Berlin on Friday.");
    expect(result.text).toBe("Plan: Cheapest: FR 8362 at 19:30 for €96. Then a train to the hotel.");
    const child = await store.run("trip-1.t0c0");
    expect(child).toMatchObject({ agent: "researcher", parentRunId: "trip-1", status: "complete" });
    const parentResult = (await store.record("trip-1", "turn:0:call:0:result"))?.payload as ToolResultPayload;
    expect(parentResult.childRunIds).toEqual(["trip-1.t0c0"]);
    expect(await store.record("trip-1", "turn:0:call:0:agent:0")).toMatchObject({ kind: "signal", payload: { type: "subagent", childRunId: "trip-1.t0c0" } });
    expect(result.usage.inputTokens).toBeGreaterThan((await store.run("trip-1"))?.inputTokens ?? 0);
  });

  it("streams the seed's events in order", async () => {
    const events: AgentEvent[] = [];
    const stream = billingAgent(store).stream("stream-1", "Please charge order 123.");
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      "TurnStarted",
      "AssistantTurn",
      "ToolStarted",
      "ToolCompleted",
      "TurnStarted",
      "ModelDelta",
      "ModelDelta",
      "ModelDelta",
      "AssistantTurn",
      "Finished",
    ]);
    expect(
      events
        .filter((event) => event.type === "ModelDelta")
        .map((event) => (event as { text: string }).text)
        .join(""),
    ).toBe("Charged $500.00 for order 123 (receipt rcpt-123-500).");
    const replayed: AgentEvent[] = [];
    for await (const event of billingAgent(store).stream("stream-1")) replayed.push(event);
    expect(replayed.filter((event) => event.type === "AssistantTurn").every((event) => (event as { replayed: boolean }).replayed)).toBe(true);
  });

  it("journals when each model turn and tool call started and how long it took", async () => {
    const agent = new Agent({
      name: "timed",
      store,
      model: scriptedModel("timed-model", (_request, turn) => (turn === 0 ? { toolCalls: [{ name: "wait", args: {} }] } : { text: "done" }), { delayMs: 25 }),
      tools: [tool({ name: "wait", description: "wait", input: z.object({}), execute: () => new Promise((done) => setTimeout(() => done("waited"), 30)) })],
    });
    const before = Date.now();
    await agent.run("timed-1", "time it");
    const history = await store.history("timed-1");
    const timed = history.filter((record) => record.kind === "model" || record.kind === "tool_result");
    expect(timed.map((record) => record.kind)).toEqual(["model", "tool_result", "model"]);
    for (const record of timed) {
      const payload = record.payload as { startedAt?: string; durationMs: number };
      const started = Date.parse(payload.startedAt ?? "");
      expect(started).toBeGreaterThanOrEqual(before);
      expect(payload.durationMs).toBeGreaterThanOrEqual(record.kind === "model" ? 20 : 25);
      // Journaled after it ended: the record's time is at or after start + duration (ms clock, so 1 ms slack).
      expect(Date.parse(record.createdAt)).toBeGreaterThanOrEqual(started + payload.durationMs - 1);
    }
    // The tool call starts after the model turn that asked for it ended.
    const [turn, call] = timed.map((record) => record.payload as { startedAt: string; durationMs: number });
    expect(Date.parse(call!.startedAt)).toBeGreaterThanOrEqual(Date.parse(turn!.startedAt) + turn!.durationMs);
  });

  it("says what the drive's model calls cost: priced by the table or the agent's pricing, null without a price", async () => {
    const script = (_request: unknown, turn: number) => (turn === 0 ? { toolCalls: [{ name: "noop", args: {} }] } : { text: "done" });
    const tools = [tool({ name: "noop", description: "noop", input: z.object({}), execute: () => "ok" })];
    const priced = await new Agent({ name: "priced", store, model: scriptedModel("acme/priced", script), tools, pricing: { "acme/priced": { input: 2, output: 10 } } }).runResult(
      "cost-1",
      "go",
    );
    expect(priced.usage.inputTokens).toBeGreaterThan(0);
    expect(priced.costUsd).toBeCloseTo((priced.usage.inputTokens * 2 + priced.usage.outputTokens * 10) / 1_000_000, 12);
    // The kept table prices a model it lists.
    const listed = await new Agent({ name: "listed", store, model: scriptedModel("openai/gpt-4o-mini", script), tools }).runResult("cost-2", "go");
    expect(listed.costUsd).toBeCloseTo((listed.usage.inputTokens * 0.15 + listed.usage.outputTokens * 0.6) / 1_000_000, 12);
    const unpriced = await new Agent({ name: "unpriced", store, model: scriptedModel("acme/unpriced", script), tools }).runResult("cost-3", "go");
    expect(unpriced.costUsd).toBeNull();
    // A resumed run's recorded turns were paid for when they ran: nothing new costs nothing.
    const resumed = await new Agent({ name: "priced", store, model: scriptedModel("acme/priced", script), tools, pricing: { "acme/priced": { input: 2, output: 10 } } }).runResult(
      "cost-1",
    );
    expect(resumed).toMatchObject({ turns: 0, costUsd: 0 });
  });

  it("refuses a different input for an existing run, and an endless run", async () => {
    await billingAgent(store).run("mismatch-1", "Please charge order 123.");
    await expect(billingAgent(store).run("mismatch-1", "Please charge order 77.")).rejects.toBeInstanceOf(InputMismatchError);
    const endless = new Agent({
      name: "endless",
      store,
      maxTurns: 3,
      model: scriptedModel("endless", () => ({ toolCalls: [{ name: "again", args: {} }] })),
      tools: [tool({ name: "again", description: "again", input: z.object({}), execute: () => "again" })],
    });
    await expect(endless.run("endless-1", "go")).rejects.toBeInstanceOf(MaxTurnsError);
    expect((await store.run("endless-1"))?.status).toBe("failed");
  });
});
