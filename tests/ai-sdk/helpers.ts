/** Scripted AI SDK models (MockLanguageModelV3 from ai/test) and tools for the AI SDK integration's tests. */
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream, tool, wrapLanguageModel, type ToolSet } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { backtrackMiddleware, type BacktrackMiddlewareOptions } from "@/lib/ai-sdk/middleware";

export const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

export type Reply = { text: string } | { call: { id: string; name: string; input: unknown } };

export function generated(reply: Reply): LanguageModelV3GenerateResult {
  if ("text" in reply) return { content: [{ type: "text", text: reply.text }], finishReason: { unified: "stop", raw: undefined }, usage: usage(10, 3), warnings: [] };
  const { id, name, input } = reply.call;
  return {
    content: [{ type: "tool-call", toolCallId: id, toolName: name, input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls", raw: undefined },
    usage: usage(8, 2),
    warnings: [],
  };
}

export function streamed(reply: Reply): LanguageModelV3StreamPart[] {
  const finish = (unified: "stop" | "tool-calls"): LanguageModelV3StreamPart => ({ type: "finish", usage: usage(9, 4), finishReason: { unified, raw: undefined } });
  if ("text" in reply) {
    const words = reply.text.split(/(?<= )/);
    return [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      ...words.map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta })),
      { type: "text-end", id: "t" },
      finish("stop"),
    ];
  }
  const { id, name, input } = reply.call;
  return [{ type: "stream-start", warnings: [] }, { type: "tool-call", toolCallId: id, toolName: name, input: JSON.stringify(input) }, finish("tool-calls")];
}

/**
 * A stream of `parts` that holds back everything after its first text delta until `gate` settles,
 * so a test can look at the journal while the provider is still streaming (a stream without text
 * is not held).
 */
function heldStream(parts: LanguageModelV3StreamPart[], gate: Promise<void>): ReadableStream<LanguageModelV3StreamPart> {
  const first = parts.findIndex((part) => part.type === "text-delta");
  const cut = first === -1 ? parts.length : first + 1;
  return new ReadableStream({
    async start(controller) {
      for (const part of parts.slice(0, cut)) controller.enqueue(part);
      if (first !== -1) await gate;
      for (const part of parts.slice(cut)) controller.enqueue(part);
      controller.close();
    },
  });
}

/**
 * A mock model for generate and stream calls alike that answers by where the conversation is:
 * `replies[n]` when the prompt holds n tool messages (so a resumed run gets the same answers as
 * a fresh one). `calls` counts the provider calls. With `holdStreamsUntil`, a streamed answer
 * stops after its first text delta until that promise settles.
 */
export function scripted(replies: Reply[], options: { holdStreamsUntil?: Promise<void> } = {}): MockLanguageModelV3 & { calls: () => number } {
  let calls = 0;
  const take = (call: LanguageModelV3CallOptions): Reply => {
    calls += 1;
    const step = call.prompt.filter((message) => message.role === "tool").length;
    const reply = replies[step];
    if (!reply) throw new Error(`the mock model has no reply for step ${step} (${replies.length} scripted)`);
    return reply;
  };
  const model = new MockLanguageModelV3({
    provider: "mock",
    modelId: "scripted-1",
    doGenerate: async (options) => generated(take(options)),
    doStream: async (call) => {
      const parts = streamed(take(call));
      return { stream: options.holdStreamsUntil ? heldStream(parts, options.holdStreamsUntil) : simulateReadableStream({ chunks: parts, chunkDelayInMs: 1 }) };
    },
  });
  return Object.assign(model, { calls: () => calls });
}

/** A model that must not be called (everything it would say is recorded). */
export function silent(): MockLanguageModelV3 {
  const refuse = async (): Promise<never> => {
    throw new Error("the provider was called, but every output should have been served from the journal");
  };
  return new MockLanguageModelV3({ provider: "mock", modelId: "silent", doGenerate: refuse, doStream: refuse });
}

export function journaled(model: MockLanguageModelV3, options: BacktrackMiddlewareOptions) {
  return wrapLanguageModel({ model, middleware: backtrackMiddleware(options) });
}

/** The weather tool, counting its executions; `charge`, a tool with an effect. */
export function weatherTools(): { tools: ToolSet; executions: string[] } {
  const executions: string[] = [];
  const tools = {
    weather: tool({
      description: "Current weather in a city",
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }, options) => {
        executions.push(`weather:${city}:${(options as { idempotencyKey?: string }).idempotencyKey ?? "no key"}`);
        return { city, sky: "sunny", celsius: 24 };
      },
    }),
  };
  return { tools, executions };
}

export const WEATHER_LOOP: Reply[] = [{ call: { id: "call-1", name: "weather", input: { city: "Lisbon" } } }, { text: "Sunny in Lisbon, 24°C." }];
