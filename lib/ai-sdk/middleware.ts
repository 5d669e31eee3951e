/**
 * backtrackMiddleware: a LanguageModelV3Middleware for the AI SDK's `wrapLanguageModel` that
 * journals every doGenerate/doStream call of a generateText, streamText or ToolLoopAgent run as a
 * `model` record (messages in, assembled message out, usage, model id). Invariants:
 * - a recorded call is served from the journal and never reaches the provider (resume, replay);
 * - a live stream is passed through part by part as it arrives; it is journaled when the
 *   provider's stream ends, before the consumer sees it close; a stream that fails (an `error`
 *   part, a thrown read) journals nothing, so its call is made again on resume;
 * - in `mode: "replay"` nothing is written and no provider is called.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Middleware,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from "@ai-sdk/provider";
import type { Journal } from "../journal/ports";
import { BadInputError } from "../journal/errors";
import { MAX_ID_LENGTH } from "../journal/base";
import type { AssistantMessage, TextPart, ToolCallPart, Usage } from "../agent/messages";
import { appendText, contentOf, finishOf, messageOf, parseInput, providerUsage, requestOf, streamPartsOf, usageOf } from "./convert";
import { openRun, type AiSdkRun, type CallPlan, type JournalMode, type RecordedTurn } from "./session";

export interface BacktrackMiddlewareOptions {
  store: Journal;
  /** The run every call of this wrapped model journals into; the same id again resumes it. */
  runId: string;
  /** The agent name run:start records (what a registry rebuilds the run's tools from, for replays and recovery). */
  agent: string;
  /** `record` (default): journal live calls and serve recorded ones; `replay`: serve recorded outputs only. */
  mode?: JournalMode;
}

export function backtrackMiddleware(options: BacktrackMiddlewareOptions): LanguageModelV3Middleware {
  const { store, runId, agent, mode = "record" } = options;
  if (typeof store?.append !== "function" || typeof store.history !== "function")
    throw new BadInputError("backtrackMiddleware needs a store (a Backtrack Journal: openStore(), MemStore)");
  if (typeof runId !== "string" || runId.length === 0 || runId.length > MAX_ID_LENGTH)
    throw new BadInputError(`backtrackMiddleware needs a runId of 1 to ${MAX_ID_LENGTH} characters`);
  if (typeof agent !== "string" || agent.length === 0) throw new BadInputError("backtrackMiddleware needs an agent name");
  if (mode !== "record" && mode !== "replay") throw new BadInputError(`backtrackMiddleware mode must be "record" or "replay", not ${JSON.stringify(mode)}`);
  const run = openRun(store, runId, agent, mode);
  return {
    specificationVersion: "v3",
    wrapGenerate: ({ doGenerate, params, model }) => generate(run, params, model, doGenerate),
    wrapStream: ({ doStream, params, model }) => stream(run, params, model, doStream),
  };
}

const modelIdOf = (model: LanguageModelV3): string => `${model.provider}:${model.modelId}`;

async function generate(
  run: AiSdkRun,
  params: LanguageModelV3CallOptions,
  model: LanguageModelV3,
  doGenerate: () => PromiseLike<LanguageModelV3GenerateResult>,
): Promise<LanguageModelV3GenerateResult> {
  const plan = await run.plan(requestOf(params), modelIdOf(model));
  if (plan.recorded) return generateResultOf(plan.recorded);
  const started = Date.now();
  const result = await doGenerate();
  const output = { message: messageOf(result.content), usage: usageOf(result.usage), finishReason: result.finishReason.unified };
  const journaled = await run.journal(plan, { ...output, model: modelIdOf(model), durationMs: Date.now() - started });
  // Another writer journaled this turn first: its output is the run's, so it is what this call returns.
  return sameOutput(journaled, output.message) ? result : generateResultOf(journaled);
}

function sameOutput(journaled: RecordedTurn, message: AssistantMessage): boolean {
  return JSON.stringify(journaled.payload.message) === JSON.stringify(message);
}

function generateResultOf(recorded: RecordedTurn): LanguageModelV3GenerateResult {
  const { message, usage, finishReason } = recorded.payload;
  return { content: contentOf(message), finishReason: finishOf(message, finishReason), usage: providerUsage(usage), warnings: [] };
}

async function stream(
  run: AiSdkRun,
  params: LanguageModelV3CallOptions,
  model: LanguageModelV3,
  doStream: () => PromiseLike<LanguageModelV3StreamResult>,
): Promise<LanguageModelV3StreamResult> {
  const plan = await run.plan(requestOf(params), modelIdOf(model));
  if (plan.recorded) return { stream: streamOf(recordedParts(plan.recorded)) };
  const started = Date.now();
  const result = await doStream();
  return { ...result, stream: result.stream.pipeThrough(journalingStream(run, plan, modelIdOf(model), started)) };
}

function recordedParts(recorded: RecordedTurn): LanguageModelV3StreamPart[] {
  const { message, usage, finishReason } = recorded.payload;
  return streamPartsOf(message, usage, finishReason);
}

function streamOf(parts: LanguageModelV3StreamPart[]): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** Passes every part on as it comes and assembles the message; journals it when the provider's stream ends cleanly. */
function journalingStream(run: AiSdkRun, plan: CallPlan, modelId: string, started: number): TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart> {
  const content: Array<TextPart | ToolCallPart> = [];
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let finishReason = "other";
  let failed = false;
  let settle: () => void = () => undefined;
  const journaled = new Promise<void>((resolve) => (settle = resolve));
  run.pending.add(journaled);
  const done = () => {
    run.pending.delete(journaled);
    settle();
  };
  return new TransformStream({
    transform(part, controller) {
      if (part.type === "text-delta") appendText(content, part.delta);
      else if (part.type === "tool-call" && part.providerExecuted !== true)
        content.push({ type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, args: parseInput(part.input) });
      else if (part.type === "finish") {
        usage = usageOf(part.usage);
        finishReason = part.finishReason.unified;
      } else if (part.type === "error") failed = true;
      controller.enqueue(part);
    },
    async flush() {
      try {
        if (!failed) await run.journal(plan, { message: { role: "assistant", content }, usage, finishReason, model: modelId, durationMs: Date.now() - started });
      } finally {
        done();
      }
    },
    cancel() {
      done();
    },
  } as Transformer<LanguageModelV3StreamPart, LanguageModelV3StreamPart>);
}
