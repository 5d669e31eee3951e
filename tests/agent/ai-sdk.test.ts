/** The AI SDK adapter, driven by the AI SDK's own mock language model (ai/test). */
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "@/lib/agent/agent";
import { fromAiSdk, ModelCallError } from "@/lib/agent/ai-sdk";
import { tool } from "@/lib/agent/tool";
import { MemStore } from "@/lib/journal/memory-store";

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

function streamOf(parts: LanguageModelV3StreamPart[]) {
  return { stream: simulateReadableStream({ chunks: parts }) };
}

describe("fromAiSdk", () => {
  it("runs the agent loop on an AI SDK model: tool call, tool result, streamed answer, usage", async () => {
    const mock = new MockLanguageModelV3({
      provider: "mock",
      modelId: "gpt-test",
      doStream: [
        streamOf([
          { type: "stream-start", warnings: [] },
          { type: "tool-call", toolCallId: "call_1", toolName: "weather", input: '{"city":"Lisbon"}' },
          { type: "finish", usage: usage(12, 5), finishReason: { unified: "tool-calls", raw: undefined } },
        ] as LanguageModelV3StreamPart[]),
        streamOf([
          { type: "text-start", id: "t1" },
          { type: "text-delta", id: "t1", delta: "Sunny, " },
          { type: "text-delta", id: "t1", delta: "24°C." },
          { type: "text-end", id: "t1" },
          { type: "finish", usage: usage(30, 4), finishReason: { unified: "stop", raw: undefined } },
        ] as LanguageModelV3StreamPart[]),
      ],
    });
    const store = new MemStore();
    const weather = tool({ name: "weather", description: "Current weather", input: z.object({ city: z.string() }), execute: ({ city }) => ({ city, sky: "sunny", celsius: 24 }) });
    const agent = new Agent({ name: "weather", model: fromAiSdk(mock), store, tools: [weather], system: "Be brief." });
    const result = await agent.runResult("w-1", "Weather in Lisbon?");
    expect(result.text).toBe("Sunny, 24°C.");
    expect(result.usage).toEqual({ inputTokens: 42, outputTokens: 9 });
    expect((await store.history("w-1"))[0]?.payload).toMatchObject({ model: "mock:gpt-test" });
    const second = mock.doStreamCalls[1];
    expect(second?.prompt[0]).toEqual({ role: "system", content: "Be brief." });
    expect(second?.prompt.at(-1)).toMatchObject({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "call_1", toolName: "weather", output: { type: "json", value: { city: "Lisbon", sky: "sunny", celsius: 24 } } }],
    });
    expect(second?.tools?.[0]).toMatchObject({ type: "function", name: "weather", inputSchema: { type: "object", properties: { city: { type: "string" } } } });
  });

  it("turns a provider error and malformed tool input into typed errors", async () => {
    const failing = fromAiSdk(new MockLanguageModelV3({ doStream: streamOf([{ type: "error", error: new Error("rate limited") }] as LanguageModelV3StreamPart[]) }));
    await expect(new Agent({ model: failing, store: new MemStore() }).run("e-1", "hi")).rejects.toThrow(ModelCallError);
    const malformed = fromAiSdk(
      new MockLanguageModelV3({
        doStream: streamOf([
          { type: "tool-call", toolCallId: "c", toolName: "x", input: "{not json" },
          { type: "finish", usage: usage(1, 1), finishReason: { unified: "stop", raw: undefined } },
        ] as LanguageModelV3StreamPart[]),
      }),
    );
    await expect(new Agent({ model: malformed, store: new MemStore() }).run("e-2", "hi")).rejects.toMatchObject({ code: "model_call" });
  });
});
