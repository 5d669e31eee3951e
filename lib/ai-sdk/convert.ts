/**
 * Conversions between the AI SDK's provider format (LanguageModelV3: prompts, content, stream
 * parts, usage) and the journal's conversation format (lib/agent/messages.ts), so that an AI SDK
 * run's records read like a native run's. Invariants:
 * - a prompt converts to the same messages however often it is converted (a request's hash is
 *   how a resumed call finds its recorded output);
 * - recorded output converts back to content the AI SDK accepts: text parts and tool calls whose
 *   `input` is the JSON text of the recorded arguments. Reasoning, files and sources are not
 *   journaled, so a served call does not carry them.
 */
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { stableHash } from "../journal/canonical";
import type { AssistantMessage, Message, TextPart, ToolCallPart, ToolResultPart, Usage } from "../agent/messages";

/** What a model call was asked, in the journal's format. */
export interface JournaledRequest {
  system?: string;
  messages: Message[];
  /** The names of the tools the call offered. */
  tools: string[];
}

export function requestOf(params: LanguageModelV3CallOptions): JournaledRequest {
  const systems: string[] = [];
  const messages: Message[] = [];
  for (const message of params.prompt) {
    if (message.role === "system") systems.push(message.content);
    else messages.push(toMessage(message));
  }
  const tools = (params.tools ?? []).map((tool) => tool.name);
  return { ...(systems.length > 0 ? { system: systems.join("\n\n") } : {}), messages, tools };
}

/** Past this size a journaled request keeps only the messages after the last assistant message. */
export const MAX_REQUEST_BYTES = 256 * 1024;

/**
 * The request as a model record keeps it: whole, or, when larger than MAX_REQUEST_BYTES (a long
 * conversation: each record would repeat all of it), only what is new since the model last
 * answered, with `omitted` saying how many earlier messages the earlier records hold.
 */
export function journaledRequest(request: JournaledRequest): JournaledRequest & { omitted?: number } {
  if (Buffer.byteLength(JSON.stringify(request.messages), "utf8") <= MAX_REQUEST_BYTES) return request;
  const lastAnswer = request.messages.map((message) => message.role).lastIndexOf("assistant");
  if (lastAnswer < 0) return request;
  return { ...request, messages: request.messages.slice(lastAnswer + 1), omitted: lastAnswer + 1 };
}

/** The hash a resumed call is matched by: system text and messages (not the tool list, not provider options). */
export function requestHash(request: JournaledRequest): string {
  return stableHash({ system: request.system ?? null, messages: request.messages });
}

function toMessage(message: Exclude<LanguageModelV3Message, { role: "system" }>): Message {
  switch (message.role) {
    case "user":
      return { role: "user", content: message.content.map((part) => (part.type === "text" ? part.text : `[file ${part.mediaType}]`)).join("") };
    case "assistant": {
      const content: Array<TextPart | ToolCallPart> = [];
      for (const part of message.content) {
        if (part.type === "text") content.push({ type: "text", text: part.text });
        else if (part.type === "tool-call") content.push({ type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, args: part.input ?? {} });
      }
      return { role: "assistant", content };
    }
    case "tool": {
      const content: ToolResultPart[] = [];
      for (const part of message.content) {
        if (part.type === "tool-result") content.push({ type: "tool-result", toolCallId: part.toolCallId, toolName: part.toolName, ...resultOf(part.output) });
      }
      return { role: "tool", content };
    }
  }
}

function resultOf(output: LanguageModelV3ToolResultOutput): { result: unknown; isError: boolean } {
  switch (output.type) {
    case "text":
    case "json":
      return { result: output.value, isError: false };
    case "error-text":
    case "error-json":
      return { result: output.value, isError: true };
    case "execution-denied":
      return { result: { error: `denied${output.reason ? `: ${output.reason}` : ""}` }, isError: true };
    case "content":
      return { result: output.value, isError: false };
  }
}

/** The assembled message of a model's content: consecutive text joins one part; tool calls keep their order. */
export function messageOf(content: readonly LanguageModelV3Content[]): AssistantMessage {
  const parts: Array<TextPart | ToolCallPart> = [];
  for (const part of content) {
    if (part.type === "text") appendText(parts, part.text);
    else if (part.type === "tool-call" && part.providerExecuted !== true)
      parts.push({ type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, args: parseInput(part.input) });
  }
  return { role: "assistant", content: parts };
}

export function appendText(parts: Array<TextPart | ToolCallPart>, text: string): void {
  if (text.length === 0) return;
  const last = parts.at(-1);
  if (last?.type === "text") last.text += text;
  else parts.push({ type: "text", text });
}

/** A tool call's input text as arguments; text that is not JSON is kept as it is (the AI SDK reports it). */
export function parseInput(input: string): unknown {
  if (input.trim() === "") return {};
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

function inputText(args: unknown): string {
  return typeof args === "string" ? args : JSON.stringify(args ?? {});
}

export function usageOf(usage: LanguageModelV3Usage): Usage {
  return { inputTokens: usage.inputTokens.total ?? 0, outputTokens: usage.outputTokens.total ?? 0 };
}

export function providerUsage(usage: Usage): LanguageModelV3Usage {
  return {
    inputTokens: { total: usage.inputTokens, noCache: usage.inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: usage.outputTokens, text: usage.outputTokens, reasoning: undefined },
  };
}

export function finishOf(message: AssistantMessage, recorded: string | undefined): LanguageModelV3FinishReason {
  const unified = isUnified(recorded) ? recorded : message.content.some((part) => part.type === "tool-call") ? "tool-calls" : "stop";
  return { unified, raw: undefined };
}

const UNIFIED = new Set(["stop", "length", "content-filter", "tool-calls", "error", "other"]);
function isUnified(value: string | undefined): value is LanguageModelV3FinishReason["unified"] {
  return value !== undefined && UNIFIED.has(value);
}

/** Recorded output as generate content. */
export function contentOf(message: AssistantMessage): LanguageModelV3Content[] {
  return message.content.map((part) =>
    part.type === "text"
      ? { type: "text" as const, text: part.text }
      : { type: "tool-call" as const, toolCallId: part.toolCallId, toolName: part.toolName, input: inputText(part.args) },
  );
}

/** Recorded output as the stream parts a provider would send, ending with `finish`. */
export function streamPartsOf(message: AssistantMessage, usage: Usage, finishReason: string | undefined): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  message.content.forEach((part, index) => {
    if (part.type === "text") {
      const id = `text-${index}`;
      parts.push({ type: "text-start", id }, { type: "text-delta", id, delta: part.text }, { type: "text-end", id });
    } else {
      parts.push({ type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, input: inputText(part.args) });
    }
  });
  parts.push({ type: "finish", usage: providerUsage(usage), finishReason: finishOf(message, finishReason) });
  return parts;
}
