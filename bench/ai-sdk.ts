/**
 * AI SDK integration benchmark (issue "Bring your own agent"): what backtrackMiddleware adds to a
 * model call, on the PostgreSQL server, against the same generateText on the same mock model
 * unwrapped (the bare baseline), measured in the same interleaved rounds.
 * - first call: a one-call run (a fresh run id each time): the history read, run:start, the
 *   model record and run:complete, so four round trips: the most a call ever pays;
 * - next call: a further call in an open run (its conversation grew, so it is made live): the
 *   model record alone. The mock answers with a call to a client-side tool, so no run:complete.
 *   Its baseline is the same calls unwrapped (bareNextCallMs): the same conversation, one message
 *   longer each call, and the same tools, so the AI SDK's own work on them is not counted as the
 *   middleware's. (The first call's baseline, bareCallMs, is its own single prompt.)
 * Each round times CALLS calls one by one and keeps their median; the figure is the median round.
 * Two more baselines in the same rounds tell the middleware's own cost from the database's: a
 * bare single-row INSERT (postgres.js, a table of the journal's shape, one commit: what one
 * durable record costs at the least), and the next call on a MemStore (the middleware's CPU).
 */
import { generateText, jsonSchema, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { backtrackMiddleware } from "../lib/ai-sdk/middleware";
import postgres from "postgres";
import { MemStore } from "../lib/journal/memory-store";
import type { Journal } from "../lib/journal/ports";
import { openStore } from "../lib/store/index";
import { interleaved, median, type Benchmark } from "./harness";

const CALLS = 40;
const ROUNDS = 7;
const usage = { inputTokens: { total: 12, noCache: 12, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 4, text: 4, reasoning: 0 } };

function mockModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: "bench",
    modelId: "mock",
    doGenerate: async ({ prompt }) =>
      prompt.length > 1
        ? {
            content: [{ type: "tool-call", toolCallId: `c-${prompt.length}`, toolName: "show", input: '{"page":1}' }],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          }
        : { content: [{ type: "text", text: "The order has shipped." }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] },
  });
}

// A client-side tool (no execute): the model's call ends the generateText call.
const tools = { show: tool({ description: "Show a page to the user", inputSchema: jsonSchema<{ page: number }>({ type: "object", properties: { page: { type: "number" } } }) }) };

async function perCall(call: (index: number) => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < CALLS; index += 1) {
    const started = performance.now();
    await call(index);
    samples.push(performance.now() - started);
  }
  return median(samples);
}

/**
 * A further call in an open run, timed per call (the run's first call is not timed). Without a
 * store, the same calls unwrapped: the same growing conversation and tools, the next call's baseline.
 */
async function nextCalls(store: Journal | undefined, model: MockLanguageModelV3, runId: string): Promise<number> {
  const wrapped = store ? wrapLanguageModel({ model, middleware: backtrackMiddleware({ store, runId, agent: "bench" }) }) : model;
  const messages: Array<{ role: "user"; content: string }> = [{ role: "user", content: "Start." }];
  await generateText({ model: wrapped, messages, tools });
  return perCall((index) => {
    messages.push({ role: "user", content: `Question ${index}.` });
    return generateText({ model: wrapped, messages, tools });
  });
}

export const aiSdkBenchmarks: Benchmark[] = [
  {
    name: "aiSdkMiddleware",
    async run(context) {
      const url = await context.serverDatabase();
      const store = await openStore({ url });
      const sql = postgres(url, { max: 1, onnotice: () => undefined });
      await sql`create table bare_records (run_id text, seq integer, name text, kind text, payload jsonb, created_at timestamptz default now(), primary key (run_id, name))`;
      const payload = {
        message: { role: "assistant", content: [{ type: "tool-call", toolCallId: "c-1", toolName: "show", args: { page: 1 } }] },
        usage: { inputTokens: 12, outputTokens: 4 },
      };
      const model = mockModel();
      try {
        const figures = await interleaved(
          ROUNDS,
          {
            bare: () => perCall(() => generateText({ model, prompt: "Where is order 7?" })),
            insert: (round) =>
              perCall(
                (index) => sql`insert into bare_records (run_id, seq, name, kind, payload) values (${`r-${round}`}, ${index}, ${`turn:${index}`}, 'model', ${sql.json(payload)})`,
              ),
            first: (round) =>
              perCall((index) =>
                generateText({
                  model: wrapLanguageModel({ model, middleware: backtrackMiddleware({ store, runId: `first-${round}-${index}`, agent: "bench" }) }),
                  prompt: "Where is order 7?",
                }),
              ),
            bareNext: () => nextCalls(undefined, model, "unwrapped"),
            next: (round) => nextCalls(store, model, `next-${round}`),
            memoryNext: (round) => nextCalls(new MemStore(), model, `memory-${round}`),
          },
          { warmup: 1 },
        );
        return {
          bareCallMs: figures.bare,
          firstCallMs: figures.first,
          nextCallMs: figures.next,
          firstCallOverheadMs: figures.first - figures.bare,
          bareNextCallMs: figures.bareNext,
          nextCallOverheadMs: figures.next - figures.bareNext,
          bareInsertMs: figures.insert,
          nextCallOverheadVsInsert: (figures.next - figures.bareNext) / figures.insert,
          memoryNextCallOverheadMs: figures.memoryNext - figures.bareNext,
          calls: CALLS * ROUNDS,
          warmupRounds: 1,
        };
      } finally {
        await sql.end();
        await store.close();
      }
    },
  },
];
