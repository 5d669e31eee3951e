/**
 * Issue 14 part 2, GenAI semantic conventions: an `invoke_agent` with a nested agent becomes a run
 * and a sub-agent run; duplicates change nothing; batches sent in any order give the same runs,
 * held spans waiting for their parents. On every store.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Journal } from "@/lib/journal/ports";
import { ingestOtlp } from "@/lib/otel/ingest";
import { recover } from "@/lib/recovery/recover";
import { STORE_KINDS } from "../helpers/databases";
import { payload, plannerTrace, type Span } from "./genai";

const send = (store: Journal, spans: Span[]) => ingestOtlp(store, { body: Buffer.from(payload(spans)), contentType: "application/json" });
const names = async (store: Journal, runId: string) => (await store.history(runId)).map((record) => record.name);

const PLANNER = ["run:start", "turn:0", "turn:0:call:0:attempt", "turn:0:call:0:result", "turn:1", "run:complete"];
const RESEARCHER = ["run:start", "turn:0", "run:complete"];
const SUB_RUN = "planner-run.a000000000000004";

describe.each(STORE_KINDS)("GenAI semconv ingest: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  beforeEach(async () => {
    store = await kind.open();
  });
  afterEach(async () => {
    await store.close();
  });

  it("maps invoke_agent to a run and a nested one to a sub-agent run, dropping other spans", async () => {
    const result = await send(store, plannerTrace());
    expect(result).toMatchObject({ accepted: 6, rejected: 0, dropped: 1 });
    expect(result.message).toContain("1 span(s) were not AI spans");
    expect(await names(store, "planner-run")).toEqual(PLANNER);
    expect(await names(store, SUB_RUN)).toEqual(RESEARCHER);
    expect(await store.run("planner-run")).toMatchObject({ agent: "planner", origin: "otel", status: "complete", parentRunId: null, modelTurns: 2, toolCalls: 1, inputTokens: 30 });
    expect(await store.run(SUB_RUN)).toMatchObject({ agent: "researcher", parentRunId: "planner-run", origin: "otel", status: "complete" });
    const header = (await store.record("planner-run", "run:start"))?.payload;
    expect(header).toMatchObject({ input: "Plan a trip to Lisbon", agent: "planner" });
    const result1 = (await store.record("planner-run", "turn:0:call:0:result"))?.payload;
    expect(result1).toMatchObject({ toolName: "research", args: { topic: "Lisbon" }, result: { notes: "trams" } });
  });

  it("takes spans as exporters send them (children first) and in reverse, alike", async () => {
    // One span a request, each in the order it ended: what a batch processor does under load.
    const byEnd = [...plannerTrace()].sort((a, b) => a.end - b.end);
    for (const span of byEnd) await send(store, [span]);
    expect(await names(store, "planner-run")).toEqual(PLANNER);
    expect(await names(store, SUB_RUN)).toEqual(RESEARCHER);
    expect((await store.run("planner-run"))?.status).toBe("complete");
  });

  it("keeps a run running until its own span arrives, and shows turns meanwhile", async () => {
    const [root, firstChat, ...rest] = plannerTrace();
    await send(store, [firstChat!]);
    // Its parent (the planner) has not arrived: it waits.
    expect(await store.run("planner-run")).toBeUndefined();
    await send(store, [rest[2]!, rest[3]!]);
    // The researcher arrived with its chat, under a tool span that has not: the run waits still.
    expect(await store.run("planner-run")).toBeUndefined();
    await send(store, [rest[0]!]);
    expect(await store.run("planner-run")).toBeUndefined();
    await send(store, [root!, ...rest.slice(0, 4)]);
    expect((await store.run("planner-run"))?.status).toBe("complete");
    expect(await names(store, "planner-run")).toEqual(PLANNER);
  });

  it("is never driven by recovery, even while running", async () => {
    // An AI SDK model span whose generateText span is still open: journaled at once, the run running.
    const doGenerate: Span = {
      ...{ spanId: "b000000000000002", parentSpanId: "b000000000000001", name: "ai.generateText.doGenerate", start: 1, end: 2 },
      attributes: { "ai.telemetry.metadata.runId": "running-run", "ai.telemetry.functionId": "sdk-agent", "ai.response.text": "thinking" },
    };
    await ingestOtlp(store, { body: Buffer.from(payload([doGenerate], "2af7651916cd43dd8448eb211c80319c")), contentType: "application/json" });
    expect(await store.run("running-run")).toMatchObject({ status: "running", origin: "otel", agent: "sdk-agent", modelTurns: 1 });
    const driven: string[] = [];
    await recover(store, async (runId) => void driven.push(runId));
    expect(driven).not.toContain("running-run");
  });

  it("ignores duplicates, within a request and across retries", async () => {
    const spans = plannerTrace();
    await send(store, [...spans, ...spans]);
    const again = await send(store, spans);
    expect(again).toMatchObject({ accepted: 0, rejected: 0, duplicates: 6 });
    expect(await names(store, "planner-run")).toEqual(PLANNER);
    expect((await store.run("planner-run"))?.modelTurns).toBe(2);
  });

  it("rejects spans whose run id belongs to a run it did not journal", async () => {
    await store.append({ runId: "planner-run", name: "run:start", kind: "header", payload: { input: "native", agent: "native", model: "m", tools: [] } });
    const result = await send(store, plannerTrace());
    expect(result.rejected).toBeGreaterThan(0);
    expect(result.message).toContain('run "planner-run" already exists');
    expect(await names(store, "planner-run")).toEqual(["run:start"]);
    expect((await store.run("planner-run"))?.origin).toBe("agent");
  });

  it("fails the run when its span ends with an error", async () => {
    const spans = plannerTrace("failing-run").map((span) => (span.spanId.endsWith("1") ? { ...span, status: 2 } : span));
    await send(store, spans);
    expect(await store.run("failing-run")).toMatchObject({ status: "failed", completedAt: null });
    expect(await names(store, "failing-run")).not.toContain("run:complete");
  });
});
