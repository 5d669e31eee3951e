/**
 * The AI SDK adapter: any Vercel AI SDK language model (provider specification v3, the `ai`
 * package's current one) as a Backtrack Model. Plug in a real provider:
 *
 *   import { openai } from "@ai-sdk/openai";
 *   const model = fromAiSdk(openai("gpt-5"));
 */
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Message, LanguageModelV3StreamPart, LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import { BacktrackError } from "../journal/errors";
import type { AssistantMessage, Message, TextPart, ToolCallPart } from "./messages";
import type { Model, ModelRequest, ModelStreamPart } from "./model";

export class ModelCallError extends BacktrackError {
  constructor(
    readonly modelId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super("model_call", `model ${modelId}: ${message}`, options);
  }
}

export function fromAiSdk(model: LanguageModelV3, options: { id?: string } = {}): Model {
  const id = options.id ?? `${model.provider}:${model.modelId}`;
  return {
    id,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      const { stream } = await model.doStream(toCallOptions(request));
      // Parts in the order the model produced them; consecutive text deltas join one text part.
      const content: Array<TextPart | ToolCallPart> = [];
      let usage = { inputTokens: 0, outputTokens: 0 };
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const part: LanguageModelV3StreamPart = value;
        if (part.type === "text-delta") {
          if (part.delta.length === 0) continue;
          const last = content.at(-1);
          if (last?.type === "text") last.text += part.delta;
          else content.push({ type: "text", text: part.delta });
          yield { type: "text-delta", text: part.delta };
        } else if (part.type === "tool-call") {
          content.push({ type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, args: parseInput(id, part.input) });
        } else if (part.type === "finish") {
          usage = { inputTokens: part.usage.inputTokens.total ?? 0, outputTokens: part.usage.outputTokens.total ?? 0 };
        } else if (part.type === "error") {
          throw new ModelCallError(id, describe(part.error), { cause: part.error });
        }
      }
      const message: AssistantMessage = { role: "assistant", content };
      yield { type: "finish", message, usage };
    },
  };
}

function parseInput(modelId: string, input: string): unknown {
  if (input.trim() === "") return {};
  try {
    return JSON.parse(input);
  } catch (error) {
    throw new ModelCallError(modelId, `a tool call's input is not JSON: ${input.slice(0, 200)}`, { cause: error });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
}

function toCallOptions(request: ModelRequest): LanguageModelV3CallOptions {
  const prompt: LanguageModelV3Message[] = [];
  if (request.system) prompt.push({ role: "system", content: request.system });
  for (const message of request.messages) prompt.push(toProviderMessage(message));
  return {
    prompt,
    tools: request.tools.map((tool) => ({
      type: "function" as const,
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as never,
    })),
    ...(request.signal ? { abortSignal: request.signal } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
  };
}

function toProviderMessage(message: Message): LanguageModelV3Message {
  switch (message.role) {
    case "user":
      return { role: "user", content: [{ type: "text", text: message.content }] };
    case "assistant":
      return {
        role: "assistant",
        content: message.content.map((part) =>
          part.type === "text" ? part : { type: "tool-call" as const, toolCallId: part.toolCallId, toolName: part.toolName, input: part.args },
        ),
      };
    case "tool":
      return {
        role: "tool",
        content: message.content.map((part) => ({
          type: "tool-result" as const,
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          output: toolOutput(part.result, part.isError),
        })),
      };
  }
}

function toolOutput(result: unknown, isError: boolean): LanguageModelV3ToolResultOutput {
  if (typeof result === "string") return { type: isError ? "error-text" : "text", value: result };
  return { type: isError ? "error-json" : "json", value: (result ?? null) as never };
}
