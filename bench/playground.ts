/**
 * The playground (issue 43): `playgroundTries` is 20 tries of one journaled model turn through
 * tryStep (the request rebuilt by driving the run's agent over a copy of its records, each try
 * asked and journaled as a `playground` run on the PostgreSQL server), against 20 bare AI SDK
 * `generateText` calls on the same MockLanguageModelV3 with the same prompt and tools, in the same
 * interleaved rounds. The figure is the median round of each and their ratio (target ≤ 1.5): once on
 * a model that answers at once (what the playground itself costs), once with LATENCY_MS a call.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { generateText, jsonSchema, simulateReadableStream, tool as aiTool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { Agent } from "../lib/agent/agent";
import { fromAiSdk } from "../lib/agent/ai-sdk";
import { Registry } from "../lib/agent/registry";
import { tool } from "../lib/agent/tool";
import type { Journal } from "../lib/journal/ports";
import { tryStep } from "../lib/playground/try-step";
import { openStore } from "../lib/store/index";
import { interleaved, type Benchmark } from "./harness";

const TRIES = 20;
/** A second pair of rounds with each model call taking this long (a fast hosted model takes several times more). */
const LATENCY_MS = 50;
const ROUNDS = 5;
const SYSTEM = "You are the billing agent. Charge orders as asked.";
const usage = { inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 6, text: 6, reasoning: 0 } };

/** The mock's answer: chargeCard first, then (once a tool result is in the prompt) a text. */
function answer({ prompt }: LanguageModelV3CallOptions) {
  if (prompt.some((message) => message.role === "tool"))
    return { content: [{ type: "text" as const, text: "Charged $500." }], finishReason: { unified: "stop" as const, raw: undefined }, usage, warnings: [] };
  return {
    content: [{ type: "tool-call" as const, toolCallId: "c-1", toolName: "chargeCard", input: '{"orderId":"123","amount":500}' }],
    finishReason: { unified: "tool-calls" as const, raw: undefined },
    usage,
    warnings: [],
  };
}

const wait = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/**
 * One scripted model for both paths: generateText asks doGenerate, Backtrack's adapter doStream
 * (the same answer, streamed). `latencyMs`: how long each call takes, the same on both paths.
 */
function mockModel(latencyMs = 0): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: "bench",
    modelId: "mock",
    doGenerate: async (options) => (await wait(latencyMs), answer(options)),
    doStream: async (options) => {
      await wait(latencyMs);
      const { content, finishReason } = answer(options);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const part of content) {
        if (part.type === "text") parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: part.text }, { type: "text-end", id: "t" });
        else parts.push(part);
      }
      parts.push({ type: "finish", finishReason, usage });
      return { stream: simulateReadableStream({ chunks: parts, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
}

const chargeCard = tool({
  name: "chargeCard",
  description: "Charge an order.",
  effects: "none",
  input: z.object({ orderId: z.string(), amount: z.number() }),
  execute: ({ amount }) => ({ charged: amount }),
});

function registry(latencyMs: number): Registry {
  return new Registry().registerModel({ name: "bench/mock", create: () => fromAiSdk(mockModel(latencyMs), { id: "bench/mock" }) }).registerAgent({
    name: "billing",
    create: (store: Journal, model) => new Agent({ name: "billing", model: model ?? fromAiSdk(mockModel(), { id: "bench/mock" }), store, tools: [chargeCard], system: SYSTEM }),
  });
}

/** The median round of 20 tries and of 20 bare calls, on a model whose calls take `latencyMs`. */
async function measure(store: Journal, latencyMs: number, rounds: number): Promise<{ tries: number; bare: number }> {
  const models = registry(latencyMs);
  const at = (await store.record("bench-order", "turn:0"))!.seq;
  const model = mockModel(latencyMs);
  const bareTools = {
    chargeCard: aiTool({
      description: "Charge an order.",
      inputSchema: jsonSchema<{ orderId: string; amount: number }>({ type: "object", properties: { orderId: { type: "string" }, amount: { type: "number" } } }),
    }),
  };
  return interleaved(
    rounds,
    {
      tries: async () => {
        const started = performance.now();
        const tried = await tryStep(store, "bench-order", at, { registry: models, times: TRIES });
        if (tried.tries.length !== TRIES) throw new Error(`${tried.tries.length} tries`);
        return performance.now() - started;
      },
      bare: async () => {
        const started = performance.now();
        for (let index = 0; index < TRIES; index += 1) await generateText({ model, system: SYSTEM, prompt: "Please charge order 123.", tools: bareTools, seed: index });
        return performance.now() - started;
      },
    },
    { warmup: 1 },
  );
}

const playgroundTries: Benchmark = {
  name: "playgroundTries",
  async run(context) {
    const store = await openStore({ url: await context.serverDatabase() });
    const models = registry(0);
    await models.agent("billing", store, models.model("bench/mock")).run("bench-order", "Please charge order 123.");
    const instant = await measure(store, 0, ROUNDS);
    const slow = await measure(store, LATENCY_MS, 3);
    await store.close();
    return {
      tries: TRIES,
      playgroundTriesMs: instant.tries,
      bareGenerateTextMs: instant.bare,
      playgroundVsBare: instant.tries / instant.bare,
      latencyMs: LATENCY_MS,
      playgroundTriesAtLatencyMs: slow.tries,
      bareGenerateTextAtLatencyMs: slow.bare,
      playgroundVsBareAtLatency: slow.tries / slow.bare,
      rounds: ROUNDS,
    };
  },
};

export const playgroundBenchmarks: Benchmark[] = [playgroundTries];
