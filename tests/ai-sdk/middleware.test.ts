/**
 * backtrackMiddleware and journalTools under the AI SDK's own generateText, streamText and
 * ToolLoopAgent, over MockLanguageModelV3, on every store: what is journaled, resume, replay.
 */
import { generateText, stepCountIs, streamText, ToolLoopAgent } from "ai";
import type { MockLanguageModelV3 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { journalTools } from "@/lib/ai-sdk/tools";
import { NoRecordedOutputError } from "@/lib/agent/replay";
import { isBacktrackError } from "@/lib/journal/errors";
import type { Journal } from "@/lib/journal/ports";
import { renderMermaid } from "@/lib/inspect/mermaid";
import { STORE_KINDS } from "../helpers/databases";
import { journaled, scripted, silent, weatherTools, WEATHER_LOOP } from "./helpers";

describe.each(STORE_KINDS)("AI SDK runs on $name", (kind) => {
  let store: Journal;
  beforeEach(async () => {
    store = await kind.open();
  });
  afterEach(async () => {
    await store.close();
  });

  it("journals a generateText tool loop like a native run: header, model turns, attempt and result, run:complete", async () => {
    const { tools, executions } = weatherTools();
    const model = scripted(WEATHER_LOOP);
    const result = await generateText({
      model: journaled(model, { store, runId: "gen-1", agent: "weather-app" }),
      system: "Be brief.",
      prompt: "Weather in Lisbon?",
      tools: journalTools(tools, { store, runId: "gen-1" }),
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe("Sunny in Lisbon, 24°C.");
    expect(executions).toHaveLength(1);
    const history = await store.history("gen-1");
    expect(history.map((record) => `${record.name}/${record.kind}`)).toEqual([
      "run:start/header",
      "turn:0/model",
      "turn:0:call:0:attempt/attempt",
      "turn:0:call:0:result/tool_result",
      "turn:1/model",
      "run:complete/value",
    ]);
    expect(history[0]?.payload).toMatchObject({ input: "Weather in Lisbon?", agent: "weather-app", model: "mock:scripted-1", system: "Be brief.", tools: ["weather"] });
    expect(history[1]?.payload).toMatchObject({
      model: "mock:scripted-1",
      usage: { inputTokens: 8, outputTokens: 2 },
      message: { role: "assistant", content: [{ type: "tool-call", toolCallId: "call-1", toolName: "weather", args: { city: "Lisbon" } }] },
      request: { system: "Be brief.", messages: [{ role: "user", content: "Weather in Lisbon?" }] },
    });
    const key = (history[2]?.payload as { idempotencyKey: string }).idempotencyKey;
    expect(executions[0]).toBe(`weather:Lisbon:${key}`);
    expect(history[3]?.payload).toMatchObject({ toolName: "weather", result: { city: "Lisbon", sky: "sunny", celsius: 24 }, isError: false });
    expect((history[4]?.payload as { request: { messages: unknown[] } }).request.messages.at(-1)).toMatchObject({
      role: "tool",
      content: [{ toolCallId: "call-1", result: { city: "Lisbon", celsius: 24 }, isError: false }],
    });
    const run = await store.run("gen-1");
    expect(run).toMatchObject({ agent: "weather-app", status: "complete", modelTurns: 2, toolCalls: 1, inputTokens: 18, outputTokens: 5 });
    const chart = await renderMermaid(store, "gen-1");
    expect(chart).toContain('["LLM"]');
    expect(chart).toContain('["tool: weather"]');
  });

  it("resumes a run: recorded model calls are served, recorded tools are not executed again, nothing is appended", async () => {
    const first = weatherTools();
    const options = { system: "Be brief.", prompt: "Weather in Lisbon?", stopWhen: stepCountIs(5) };
    await generateText({
      ...options,
      model: journaled(scripted(WEATHER_LOOP), { store, runId: "gen-2", agent: "weather-app" }),
      tools: journalTools(first.tools, { store, runId: "gen-2" }),
    });
    const before = await store.history("gen-2");
    const again = weatherTools();
    const resumed = await generateText({
      ...options,
      model: journaled(silent(), { store, runId: "gen-2", agent: "weather-app" }),
      tools: journalTools(again.tools, { store, runId: "gen-2" }),
    });
    expect(resumed.text).toBe("Sunny in Lisbon, 24°C.");
    expect(resumed.steps[0]?.toolResults[0]).toMatchObject({ toolName: "weather", output: { city: "Lisbon", sky: "sunny", celsius: 24 } });
    expect(again.executions).toEqual([]);
    expect(await store.history("gen-2")).toHaveLength(before.length);
  });

  it("streams streamText output as it arrives and journals the assembled message", async () => {
    const { tools, executions } = weatherTools();
    // The provider holds the rest of its answer until the test has looked at the journal.
    let release: () => void = () => undefined;
    const model = scripted(WEATHER_LOOP, { holdStreamsUntil: new Promise<void>((resolve) => (release = resolve)) });
    const result = streamText({
      model: journaled(model, { store, runId: "stream-1", agent: "weather-app" }),
      prompt: "Weather in Lisbon?",
      tools: journalTools(tools, { store, runId: "stream-1" }),
      stopWhen: stepCountIs(5),
    });
    const deltas: string[] = [];
    let recordsAtFirstDelta = -1;
    for await (const delta of result.textStream) {
      if (deltas.length === 0) {
        recordsAtFirstDelta = (await store.history("stream-1")).length;
        release();
      }
      deltas.push(delta);
    }
    // The answer came as several deltas, the first while its own turn was still streaming, unjournaled.
    expect(deltas).toEqual(["Sunny ", "in ", "Lisbon, ", "24°C."]);
    expect(recordsAtFirstDelta).toBe(4);
    expect(executions).toHaveLength(1);
    const history = await store.history("stream-1");
    expect(history.map((record) => record.name)).toEqual(["run:start", "turn:0", "turn:0:call:0:attempt", "turn:0:call:0:result", "turn:1", "run:complete"]);
    expect(history[4]?.payload).toMatchObject({
      message: { content: [{ type: "text", text: "Sunny in Lisbon, 24°C." }] },
      usage: { inputTokens: 9, outputTokens: 4 },
      finishReason: "stop",
    });
    // Resumed: the stream is served from the journal.
    const resumed = streamText({
      model: journaled(silent(), { store, runId: "stream-1", agent: "weather-app" }),
      prompt: "Weather in Lisbon?",
      tools: journalTools(weatherTools().tools, { store, runId: "stream-1" }),
      stopWhen: stepCountIs(5),
    });
    expect(await resumed.text).toBe("Sunny in Lisbon, 24°C.");
    expect(await store.history("stream-1")).toHaveLength(history.length);
  });

  it("journals a ToolLoopAgent and replays it from the journal alone; a differing call raises NoRecordedOutputError", async () => {
    const { tools } = weatherTools();
    const agent = (mode: "record" | "replay", model: MockLanguageModelV3 = scripted(WEATHER_LOOP)) =>
      new ToolLoopAgent({
        model: journaled(model, { store, runId: "agent-1", agent: "weather-app", mode }),
        instructions: "Be brief.",
        tools: journalTools(tools, { store, runId: "agent-1" }),
      });
    const live = await agent("record").generate({ prompt: "Weather in Lisbon?" });
    expect(live.text).toBe("Sunny in Lisbon, 24°C.");
    const records = (await store.history("agent-1")).length;
    const replayed = await agent("replay", silent()).generate({ prompt: "Weather in Lisbon?" });
    expect(replayed.text).toBe("Sunny in Lisbon, 24°C.");
    expect(await store.history("agent-1")).toHaveLength(records);
    const differing = agent("replay", silent()).generate({ prompt: "Weather in Porto?" });
    await expect(differing).rejects.toBeInstanceOf(NoRecordedOutputError);
    await expect(differing).rejects.toMatchObject({ code: "no_recorded_output", differingCall: 0, runId: "agent-1" });
    expect(isBacktrackError(await differing.catch((error: unknown) => error), "no_recorded_output")).toBe(true);
    expect(await store.history("agent-1")).toHaveLength(records);
  });
});
