/**
 * Durable pauses on every store: approval (and denial), interrupts, sleeps with a waker, pauses
 * inside sub-agents, and what happens after a pause point is passed or a drive is cancelled.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Interrupted, isPause, PendingApproval, ResumeHalt, Sleeping } from "@/lib/agent/pauses";
import { tool, sleep } from "@/lib/agent/tool";
import type { ApprovalPayload, ToolResultPayload } from "@/lib/agent/payloads";
import { isBacktrackError } from "@/lib/journal/errors";
import type { JournalBase } from "@/lib/journal/base";
import type { Journal } from "@/lib/journal/ports";
import { SimulatedCrashError } from "@/lib/journal/faults";
import { answer, approve, resolveHalt, rootRunOf } from "@/lib/recovery/pause-decisions";
import { NotWaitingError } from "@/lib/recovery/errors";
import { recover } from "@/lib/recovery/recover";
import { wakeDue } from "@/lib/recovery/wake";
import { MemWaker, withWaker } from "@/lib/recovery/waker";
import { STORE_KINDS } from "../helpers/databases";
import { delegatingParent, plannedAgent } from "./agents";

type TestStore = Journal & JournalBase & { close(): Promise<void> };

describe.each(STORE_KINDS)("durable pauses: $name", (kind) => {
  let store: TestStore;
  const effects: string[] = [];

  const refund = tool({
    name: "refund",
    description: "Refund an order; above $100 a human approves.",
    input: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: ({ amount }) => amount > 100,
    execute: ({ orderId, amount }, ctx) => {
      effects.push(`refund ${ctx.runId} ${orderId} ${amount}`);
      return { refunded: amount };
    },
  });
  const askSize = tool({
    name: "askSize",
    description: "Ask the customer which size they want, then order it.",
    input: z.object({}),
    execute: async (_args, ctx) => {
      const size = await ctx.ask("Which size, S, M or L?");
      effects.push(`order ${ctx.runId} ${size}`);
      return { ordered: size };
    },
  });
  const remind = tool({
    name: "remind",
    description: "Wait a minute, then remind.",
    input: z.object({ ms: z.number() }),
    execute: async ({ ms }, ctx) => {
      await sleep(ctx, ms);
      effects.push(`remind ${ctx.runId}`);
      return { reminded: true };
    },
  });

  beforeAll(async () => {
    store = (await kind.open()) as TestStore;
  });
  afterAll(async () => {
    await store.close();
  });

  it("pauses for approval, journals who approved and when, then runs the tool once", async () => {
    const agent = () => plannedAgent(store, [refund], [{ name: "refund", args: { orderId: "9", amount: 900 } }]);
    const paused = await agent()
      .run("approve-me", "Refund order 9.")
      .catch((error: unknown) => error);
    expect(paused).toBeInstanceOf(PendingApproval);
    expect(isPause(paused)).toBe(true);
    const summary = await store.run("approve-me");
    expect(summary).toMatchObject({
      status: "paused",
      pause: { reason: "approval", runId: "approve-me", name: "turn:0:call:0:approval", toolName: "refund", args: { orderId: "9", amount: 900 } },
    });
    expect(summary?.pause?.toolCallId).toEqual(expect.any(String));
    // Paused again on every resume until a human decides; the tool never ran.
    await expect(agent().run("approve-me")).rejects.toBeInstanceOf(PendingApproval);
    expect(effects.filter((effect) => effect.includes("approve-me"))).toEqual([]);

    const at = new Date("2026-11-30T10:00:00.000Z");
    const decided = await approve(store, "approve-me", { approved: true, by: "ana", at });
    expect(decided.created).toBe(true);
    const record = await store.record("approve-me", "turn:0:call:0:approval");
    expect(record?.kind).toBe("approval");
    expect(record?.payload as ApprovalPayload).toMatchObject({ approved: true, by: "ana", at: at.toISOString(), toolName: "refund", toolCallId: summary?.pause?.toolCallId });

    const result = await agent().runResult("approve-me");
    expect(result.text).toBe('done: refund={"refunded":900}');
    expect(effects.filter((effect) => effect.includes("approve-me"))).toEqual(["refund approve-me 9 900"]);
    expect((await store.run("approve-me"))?.status).toBe("complete");
    // Nothing waits any more.
    const late = await approve(store, "approve-me", { approved: false, by: "bo" }).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(NotWaitingError);
    expect(isBacktrackError(late, "not_waiting")).toBe(true);
  });

  it("a small refund needs no approval", async () => {
    const text = (await plannedAgent(store, [refund], [{ name: "refund", args: { orderId: "3", amount: 20 } }]).runResult("small-refund", "Refund order 3.")).text;
    expect(text).toBe('done: refund={"refunded":20}');
  });

  it("a denial becomes an error result the model sees, and the model goes on", async () => {
    const agent = () => plannedAgent(store, [refund], [{ name: "refund", args: { orderId: "8", amount: 800 } }]);
    await expect(agent().run("deny-me", "Refund order 8.")).rejects.toBeInstanceOf(PendingApproval);
    await approve(store, "deny-me", { approved: false, by: "bo", reason: "over the limit" });
    const result = await agent().runResult("deny-me");
    expect(result.text).toBe('done: refund!{"error":"denied by bo: over the limit"}');
    const toolResult = (await store.record("deny-me", "turn:0:call:0:result"))?.payload as ToolResultPayload;
    expect(toolResult).toMatchObject({ isError: true, toolName: "refund" });
    expect(await store.record("deny-me", "turn:0:call:0:attempt")).toBeUndefined();
    expect(effects.some((effect) => effect.includes("deny-me"))).toBe(false);
  });

  it("an interrupt asks the user, pauses, and the answer resumes the run", async () => {
    const agent = () => plannedAgent(store, [askSize], [{ name: "askSize", args: {} }]);
    const paused = await agent()
      .run("ask-me", "Order me a shirt.")
      .catch((error: unknown) => error);
    expect(paused).toBeInstanceOf(Interrupted);
    expect(await store.run("ask-me")).toMatchObject({ status: "paused", pause: { reason: "interrupt", question: "Which size, S, M or L?", name: "turn:0:call:0:ask:0:answer" } });
    await expect(answer(store, "approve-me", "L", { by: "cy" })).rejects.toBeInstanceOf(NotWaitingError);
    const decided = await answer(store, "ask-me", "L", { by: "cy" });
    expect(decided.record.payload).toMatchObject({ type: "answer", text: "L", by: "cy" });
    expect((await agent().runResult("ask-me")).text).toBe('done: askSize={"ordered":"L"}');
    expect(effects.filter((effect) => effect.includes("ask-me"))).toEqual(["order ask-me L"]);
    const names = (await store.history("ask-me")).map((record) => record.name);
    expect(names).toContain("turn:0:call:0:ask:0:passed");
  });

  it("a crash after the answer was passed is an unknown outcome: the run halts instead of ordering twice", async () => {
    const agent = () => plannedAgent(store, [askSize], [{ name: "askSize", args: {} }]);
    await expect(agent().run("ask-crash", "Order me a shirt.")).rejects.toBeInstanceOf(Interrupted);
    await answer(store, "ask-crash", "M", { by: "cy" });
    store.restart();
    store.faults = {
      beforeWrite: (record) => {
        if (record.name === "turn:0:call:0:result") throw new SimulatedCrashError(0, "before", record.name);
      },
    };
    await expect(agent().run("ask-crash")).rejects.toBeInstanceOf(SimulatedCrashError);
    store.faults = undefined;
    store.restart();
    expect(effects.filter((effect) => effect.includes("ask-crash"))).toEqual(["order ask-crash M"]);
    const halted = await agent()
      .run("ask-crash")
      .catch((error: unknown) => error);
    expect(halted).toBeInstanceOf(ResumeHalt);
    expect((halted as ResumeHalt).recordName).toBe("turn:0:call:0:attempt");
    expect(effects.filter((effect) => effect.includes("ask-crash"))).toEqual(["order ask-crash M"]);
  });

  it("a sleep journals its wake time, a restarted waker gets it back by replay, and firing it finishes the run", async () => {
    const start = Date.parse("2026-12-01T09:00:00.000Z");
    const first = new MemWaker({ startAt: start });
    const agent = () => plannedAgent(store, [remind], [{ name: "remind", args: { ms: 60_000 } }]);
    const paused = await agent()
      .run("sleepy", "Remind me in a minute.", withWaker(first))
      .catch((error: unknown) => error);
    expect(paused).toBeInstanceOf(Sleeping);
    expect((paused as Sleeping).wakeAt).toBe("2026-12-01T09:01:00.000Z");
    expect(await store.run("sleepy")).toMatchObject({ status: "paused", pause: { reason: "sleep", wakeAt: "2026-12-01T09:01:00.000Z" } });
    expect(first.pending()).toEqual([{ runId: "sleepy", rootRunId: "sleepy", name: "turn:0:call:0:sleep:0", wakeAt: "2026-12-01T09:01:00.000Z" }]);

    // A new process: its waker starts empty and recovery rebuilds it by replaying into the sleep.
    const second = new MemWaker({ startAt: start + 10_000 });
    // This store holds the other tests' runs too: this resume policy owns only "sleepy".
    const recovered = await recover(store, async (runId, { signal }) => runId === "sleepy" && agent().runResult(runId, undefined, { signal, waker: second }));
    expect(recovered.runs.find((run) => run.runId === "sleepy")).toMatchObject({ outcome: "paused", pause: { reason: "sleep" } });
    expect(second.pending().map((wake) => wake.runId)).toEqual(["sleepy"]);
    expect(await second.due()).toEqual([]);

    second.advance(50_000);
    const woken = await wakeDue(store, second, (runId, { signal }) => agent().runResult(runId, undefined, { signal, waker: second }));
    expect(woken.runs).toEqual([{ runId: "sleepy", outcome: "complete" }]);
    expect(second.pending()).toEqual([]);
    expect(effects.filter((effect) => effect.includes("sleepy"))).toEqual(["remind sleepy"]);
    expect((await store.run("sleepy"))?.status).toBe("complete");
  });

  it("two drives racing past one pause point: one goes on, the other halts, the effect happens once", async () => {
    const clock = new MemWaker({ startAt: Date.parse("2026-12-02T08:00:00.000Z") });
    const agent = () => plannedAgent(store, [remind], [{ name: "remind", args: { ms: 1_000 } }]);
    await expect(agent().run("race", "Remind me in a second.", withWaker(clock))).rejects.toBeInstanceOf(Sleeping);
    clock.advance(1_000);
    // Two processes whose leases overlapped (a lease is efficiency, not safety).
    const outcomes = await Promise.allSettled([agent().run("race", undefined, withWaker(clock)), agent().run("race", undefined, withWaker(clock))]);
    expect(effects.filter((effect) => effect === "remind race")).toEqual(["remind race"]);
    // The one that lost the race halts (or, if it started after the winner finished, replays).
    expect(outcomes.some((outcome) => outcome.status === "fulfilled")).toBe(true);
    for (const outcome of outcomes) if (outcome.status === "rejected") expect(outcome.reason).toBeInstanceOf(ResumeHalt);
  });

  it("a pause inside a sub-agent pauses the parent; deciding on the parent resumes the whole tree", async () => {
    const parent = delegatingParent(store, refund);
    await expect(parent().run("tree", "Refund order 5 through the child.")).rejects.toBeInstanceOf(PendingApproval);
    const summary = await store.run("tree");
    expect(summary?.pause).toMatchObject({ reason: "approval", runId: "tree.t0c0" });
    expect(await rootRunOf(store, "tree.t0c0")).toBe("tree");
    const decided = await approve(store, "tree", { approved: true, by: "di" });
    expect(decided.runId).toBe("tree.t0c0");
    const result = await parent().runResult("tree");
    expect(result.text).toBe('done: delegate={"child":"done: refund={\\"refunded\\":500}"}');
    expect(effects.filter((effect) => effect.includes("tree"))).toEqual(["refund tree.t0c0 5 500"]);
    const names = (await store.history("tree")).map((record) => record.name);
    expect(names).toContain("turn:0:call:0:agent:0:passed");
  });

  it("a drive cancelled mid-tool records no result: the outcome is unknown and a resume halts", async () => {
    const controller = new AbortController();
    const hang = tool({
      name: "transfer",
      description: "Send money; the connection drops mid-call.",
      input: z.object({}),
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => reject(new Error("connection lost")));
          controller.abort(new Error("drive cancelled"));
        }),
    });
    const agent = () => plannedAgent(store, [hang], [{ name: "transfer", args: {} }]);
    await expect(agent().run("cut-off", "Send it.", { signal: controller.signal })).rejects.toThrow("connection lost");
    const names = (await store.history("cut-off")).map((record) => record.name);
    expect(names).toEqual(["run:start", "turn:0", "turn:0:call:0:attempt"]);
    const halted = await agent()
      .run("cut-off")
      .catch((error: unknown) => error);
    expect(halted).toBeInstanceOf(ResumeHalt);
    expect(await store.run("cut-off")).toMatchObject({ status: "paused", pause: { reason: "halt", toolName: "transfer" } });
  });

  describe("resolving an unknown outcome", () => {
    let sent = 0;
    const failNext = { cut: false };
    const send = tool({
      name: "sendPayout",
      description: "Send a payout; the connection may drop mid-call.",
      input: z.object({ amount: z.number() }),
      execute: ({ amount }, ctx) =>
        new Promise((resolveCall, reject) => {
          sent += 1;
          if (!failNext.cut) return resolveCall({ sent: amount, key: ctx.idempotencyKey });
          failNext.cut = false;
          ctx.signal.addEventListener("abort", () => reject(new Error("connection lost")));
          controllers.at(-1)?.abort(new Error("drive cancelled"));
        }),
    });
    const controllers: AbortController[] = [];
    const agent = () => plannedAgent(store, [send], [{ name: "sendPayout", args: { amount: 70 } }]);
    /** A run halted on its payout: the drive was cut off mid-call, and a resume halts. */
    async function halted(runId: string) {
      controllers.push(new AbortController());
      failNext.cut = true;
      await expect(agent().run(runId, "Pay out.", { signal: controllers.at(-1)?.signal })).rejects.toThrow("connection lost");
      await expect(agent().run(runId)).rejects.toBeInstanceOf(ResumeHalt);
    }

    it("succeeded: the person's result is recorded as the call's, and the tool does not run again", async () => {
      await halted("resolve-done");
      const before = sent;
      const decided = await resolveHalt(store, "resolve-done", { outcome: "succeeded", result: { sent: 70, receipt: "r-1" }, by: "ops" });
      expect(decided.record.name).toBe("turn:0:call:0:resolution:1");
      const result = await agent().runResult("resolve-done");
      expect(sent).toBe(before);
      expect(result.text).toBe('done: sendPayout={"sent":70,"receipt":"r-1"}');
      const recorded = (await store.record("resolve-done", "turn:0:call:0:result"))?.payload as ToolResultPayload;
      expect(recorded).toMatchObject({ result: { sent: 70, receipt: "r-1" }, isError: false });
    });

    it("failed: the model is told the call did not complete, and who said so", async () => {
      await halted("resolve-failed");
      const before = sent;
      await resolveHalt(store, "resolve-failed", { outcome: "failed", reason: "bank says no transfer", by: "ops" });
      const result = await agent().runResult("resolve-failed");
      expect(sent).toBe(before);
      expect(result.text).toContain("sendPayout did not complete (resolved by ops: bank says no transfer)");
    });

    it("retry: it runs once more with the same idempotency key; cut off again, it waits for a second resolution", async () => {
      await halted("resolve-retry");
      const key = ((await store.record("resolve-retry", "turn:0:call:0:attempt"))?.payload as { idempotencyKey: string }).idempotencyKey;
      await resolveHalt(store, "resolve-retry", { outcome: "retry", by: "ops" });
      // The retry is cut off too: the outcome is unknown again, and the first resolution does not cover it.
      controllers.push(new AbortController());
      failNext.cut = true;
      const before = sent;
      await expect(agent().run("resolve-retry", undefined, { signal: controllers.at(-1)?.signal })).rejects.toThrow("connection lost");
      expect(sent).toBe(before + 1);
      await expect(agent().run("resolve-retry")).rejects.toBeInstanceOf(ResumeHalt);
      expect(sent).toBe(before + 1);
      const second = await resolveHalt(store, "resolve-retry", { outcome: "retry", by: "ops" });
      expect(second.record.name).toBe("turn:0:call:0:resolution:2");
      const result = await agent().runResult("resolve-retry");
      expect(sent).toBe(before + 2);
      expect(result.text).toBe(`done: sendPayout={"sent":70,"key":"${key}"}`);
    });

    it("only a halted run takes a resolution; recording one hands the run back to be driven", async () => {
      await expect(resolveHalt(store, "resolve-done", { outcome: "retry", by: "ops" })).rejects.toBeInstanceOf(NotWaitingError);
      await halted("resolve-pending");
      expect(await store.run("resolve-pending")).toMatchObject({ status: "paused", pause: { reason: "halt", toolName: "sendPayout" } });
      expect((await resolveHalt(store, "resolve-pending", { outcome: "retry", by: "ops" })).created).toBe(true);
      // Like an approval, the recorded decision leaves the run unfinished and no longer halted: recover drives it.
      expect(await store.run("resolve-pending")).toMatchObject({ status: "running", pause: null });
      await expect(resolveHalt(store, "resolve-pending", { outcome: "succeeded", by: "late" })).rejects.toBeInstanceOf(NotWaitingError);
    });
  });

  it("recognises pauses by brand, not only by class (another bundle's copy)", () => {
    const foreign = Object.assign(new Error("paused elsewhere"), { [Symbol.for("backtrack.pause")]: true, [Symbol.for("backtrack.error")]: true, code: "paused" });
    expect(isPause(foreign)).toBe(true);
    expect(isBacktrackError(foreign, "paused")).toBe(true);
    expect(isPause(new Error("plain"))).toBe(false);
  });
});
