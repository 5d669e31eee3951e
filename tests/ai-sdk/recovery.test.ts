/**
 * At-most-once for AI SDK tools, on every store: a crash at each durable write of a generateText
 * tool loop (a thrown fault: the "process" dies there, then a new one runs the same app code with
 * the same run id), halts on an unknown outcome, approvals through the journal, and the recovery
 * board and registry resumes over an AI SDK run.
 */
import { generateText, stepCountIs, tool, type ToolSet } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { fromAiSdk } from "@/lib/agent/ai-sdk";
import { Agent } from "@/lib/agent/agent";
import { isPause } from "@/lib/agent/pauses";
import { Registry } from "@/lib/agent/registry";
import { fromAiSdkTools } from "@/lib/ai-sdk/registry-tools";
import { journalTools } from "@/lib/ai-sdk/tools";
import type { JournalBase } from "@/lib/journal/base";
import { crashAt, SimulatedCrashError } from "@/lib/journal/faults";
import type { Journal, Lister } from "@/lib/journal/ports";
import { waitingFor } from "@/lib/recovery/board";
import { unfinished } from "@/lib/recovery/recover";
import { approve, resolveHalt } from "@/lib/recovery/pause-decisions";
import { registryResume } from "@/lib/recovery/resume";
import { STORE_KINDS } from "../helpers/databases";
import { journaled, scripted, weatherTools, WEATHER_LOOP, type Reply } from "./helpers";

type TestStore = Journal & JournalBase & Lister & { close(): Promise<void> };
const PROMPT = "Weather in Lisbon?";
const ANSWER = "Sunny in Lisbon, 24°C.";
const REFERENCE = ["run:start", "turn:0", "turn:0:call:0:attempt", "turn:0:call:0:result", "turn:1", "run:complete"];

function weatherRun(store: Journal, runId: string, tools: ToolSet) {
  return generateText({
    model: journaled(scripted(WEATHER_LOOP), { store, runId, agent: "weather-app" }),
    prompt: PROMPT,
    tools: journalTools(tools, { store, runId }),
    stopWhen: stepCountIs(5),
    maxRetries: 0,
  });
}

/** What the recovery board says of a run (its projection over the unfinished runs), or undefined when the run is finished. */
async function boardEntry(store: Journal, runId: string) {
  const run = (await unfinished(store)).find((entry) => entry.runId === runId);
  return run && waitingFor(run.status, run.pause, run.error);
}

describe.each(STORE_KINDS)("AI SDK runs survive crashes and wait for people: $name", (kind) => {
  let store: TestStore;
  beforeAll(async () => {
    store = (await kind.open()) as TestStore;
  });
  afterAll(async () => {
    await store.close();
  });

  for (const when of ["before", "after"] as const) {
    it(`crashes ${when} each write k; running the app again completes it, or halts where the tool's outcome is unknown`, async () => {
      const halts: number[] = [];
      for (let k = 1; k <= REFERENCE.length; k += 1) {
        const runId = `crash-${when}-${k}`;
        const { tools, executions } = weatherTools();
        store.restart();
        store.faults = crashAt(k, when);
        await expect(weatherRun(store, runId, tools), `k=${k}`).rejects.toBeInstanceOf(SimulatedCrashError);
        // A new process over the same data runs the same code with the same run id.
        store.faults = undefined;
        store.restart();
        const durable = (await store.history(runId)).map((record) => record.name);
        expect(durable, `k=${k}`).toEqual(REFERENCE.slice(0, when === "before" ? k - 1 : k));
        const unknown = durable.includes("turn:0:call:0:attempt") && !durable.includes("turn:0:call:0:result");
        const again = await weatherRun(store, runId, tools).catch((error: unknown) => error);
        if (unknown) {
          halts.push(k);
          expect(isPause(again), `k=${k}`).toBe(true);
          expect(again).toMatchObject({ code: "paused", reason: "halt", toolName: "weather" });
          expect(await store.run(runId)).toMatchObject({ status: "paused", pause: { reason: "halt", name: "turn:0:call:0:attempt", toolName: "weather" } });
          expect(await boardEntry(store, runId)).toMatchObject({ kind: "halt", action: "resolve" });
          // Replaying the halted run stops at the call whose result was never recorded.
          const replayed = generateText({
            model: journaled(scripted(WEATHER_LOOP), { store, runId, agent: "weather-app", mode: "replay" }),
            prompt: PROMPT,
            tools: journalTools(tools, { store, runId }),
            stopWhen: stepCountIs(5),
          });
          await expect(replayed).rejects.toMatchObject({ code: "no_recorded_output", unrecordedCall: "turn:0:call:0" });
          // A person found out downstream that it ran: the app goes on with that result, without running the tool.
          await resolveHalt(store, runId, { outcome: "succeeded", result: { city: "Lisbon", sky: "sunny", celsius: 24 }, by: "ops" });
          const resolved = await weatherRun(store, runId, tools);
          expect(resolved.text).toBe(ANSWER);
        } else {
          expect(again, `k=${k}`).toMatchObject({ text: ANSWER });
        }
        expect(executions.length, `k=${k}: the tool never runs twice`).toBeLessThanOrEqual(1);
        if (!unknown) expect(executions, `k=${k}`).toHaveLength(1);
        const names = (await store.history(runId)).map((record) => record.name).filter((name) => !name.includes(":resolution:"));
        expect(names, `k=${k}`).toEqual(REFERENCE);
        expect(await store.run(runId), `k=${k}`).toMatchObject({ status: "complete" });
      }
      expect(halts).toEqual(when === "before" ? [4] : [3]);
    });
  }

  it("a tool that needs approval pauses the run for a Backtrack approval; the app's next run executes it once", async () => {
    const refunds: number[] = [];
    const tools = {
      refund: tool({
        description: "Refund an order",
        inputSchema: z.object({ amount: z.number() }),
        needsApproval: async ({ amount }) => amount > 100,
        execute: async ({ amount }) => {
          refunds.push(amount);
          return { refunded: amount };
        },
      }),
    };
    const replies: Reply[] = [{ call: { id: "r-1", name: "refund", input: { amount: 900 } } }, { text: "Refunded 900." }];
    const run = () =>
      generateText({
        model: journaled(scripted(replies), { store, runId: "refund-1", agent: "refunds" }),
        prompt: "Refund order 7",
        tools: journalTools(tools, { store, runId: "refund-1" }),
        stopWhen: stepCountIs(5),
      });
    const first = await run();
    expect(first.content.some((part) => part.type === "tool-approval-request")).toBe(true);
    expect(refunds).toEqual([]);
    expect(await store.run("refund-1")).toMatchObject({ status: "paused", pause: { reason: "approval", name: "turn:0:call:0:approval", toolName: "refund", toolCallId: "r-1" } });
    expect(await boardEntry(store, "refund-1")).toMatchObject({ kind: "approval", action: "decide" });
    await approve(store, "refund-1", { approved: true, by: "ann" });
    const second = await run();
    expect(second.text).toBe("Refunded 900.");
    expect(refunds).toEqual([900]);
    expect((await store.history("refund-1")).map((record) => record.name)).toEqual([
      "run:start",
      "turn:0",
      "turn:0:call:0:approval",
      "turn:0:call:0:attempt",
      "turn:0:call:0:result",
      "turn:1",
      "run:complete",
    ]);
  });

  it("a call the tool's approval rule lets through runs without an approval record", async () => {
    const tools = {
      refund: tool({
        description: "Refund",
        inputSchema: z.object({ amount: z.number() }),
        needsApproval: async ({ amount }) => amount > 100,
        execute: async ({ amount }) => ({ refunded: amount }),
      }),
    };
    const model = scripted([{ call: { id: "r-3", name: "refund", input: { amount: 5 } } }, { text: "Refunded 5." }]);
    const result = await generateText({
      model: journaled(model, { store, runId: "refund-3", agent: "refunds" }),
      prompt: "Refund",
      tools: journalTools(tools, { store, runId: "refund-3" }),
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe("Refunded 5.");
    expect((await store.history("refund-3")).map((record) => record.name)).toEqual(REFERENCE);
  });

  it("a denial is what the model sees; the tool never runs", async () => {
    const refunds: number[] = [];
    const tools = {
      refund: tool({ description: "Refund", inputSchema: z.object({ amount: z.number() }), needsApproval: true, execute: async ({ amount }) => refunds.push(amount) }),
    };
    const model = scripted([{ call: { id: "r-2", name: "refund", input: { amount: 5 } } }, { text: "I could not refund it." }]);
    const run = () =>
      generateText({
        model: journaled(model, { store, runId: "refund-2", agent: "refunds" }),
        prompt: "Refund",
        tools: journalTools(tools, { store, runId: "refund-2" }),
        stopWhen: stepCountIs(5),
      });
    await run();
    await approve(store, "refund-2", { approved: false, by: "ann", reason: "too late" });
    expect((await run()).text).toBe("I could not refund it.");
    expect(refunds).toEqual([]);
    expect((await store.record("refund-2", "turn:0:call:0:result"))?.payload).toMatchObject({ isError: true, result: { error: "denied by ann: too late" } });
    const last = model.doGenerateCalls.at(-1)?.prompt.at(-1);
    expect(last).toMatchObject({ role: "tool", content: [{ type: "tool-result", output: { type: "error-text", value: "denied by ann: too late" } }] });
  });

  it("the recovery board's resume drives an AI SDK run through the registry: the app's tools via fromAiSdkTools", async () => {
    const { tools, executions } = weatherTools();
    store.restart();
    store.faults = crashAt(4, "after");
    await expect(weatherRun(store, "board-1", tools)).rejects.toBeInstanceOf(SimulatedCrashError);
    store.faults = undefined;
    store.restart();
    // Crashed after the tool's result: the board lists it as unfinished, and the registry's agent finishes it.
    expect(await boardEntry(store, "board-1")).toMatchObject({ kind: "running", action: null });
    const registry = new Registry().registerAgent({
      name: "weather-app",
      create: (journal, model) => new Agent({ name: "weather-app", store: journal, model: model ?? fromAiSdk(scripted(WEATHER_LOOP)), tools: fromAiSdkTools(tools) }),
    });
    const result = await registryResume(registry, store)("board-1");
    expect(result.text).toBe(ANSWER);
    expect(executions).toHaveLength(1);
    expect((await store.history("board-1")).map((record) => record.name)).toEqual(REFERENCE);
  });
});
