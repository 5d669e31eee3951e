/**
 * Messages as AI SDK telemetry (`ai.prompt.messages`, `ai.response.toolCalls`) and GenAI semantic
 * conventions (`gen_ai.input.messages`, `gen_ai.output.messages`) write them, turned into the
 * journal's Message shapes. Pure and defensive: an attribute of another shape gives nothing
 * rather than a guess.
 */
import type { AssistantMessage, Message, TextPart, ToolCallPart, ToolResultPart } from "../agent/messages";

type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseMaybe(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The parts of a message: AI SDK `content` (string or parts) or GenAI `parts`. */
function partsOf(message: Loose): Loose[] {
  if (typeof message.content === "string") return [{ type: "text", text: message.content }];
  const parts = Array.isArray(message.parts) ? message.parts : Array.isArray(message.content) ? message.content : [];
  return parts.filter(isObject);
}

function textOfPart(part: Loose): string | undefined {
  if (part.type !== "text") return undefined;
  if (typeof part.text === "string") return part.text;
  return typeof part.content === "string" ? part.content : undefined;
}

function toolCallOf(part: Loose): ToolCallPart | undefined {
  if (part.type === "tool-call" || part.type === "tool_call") {
    const toolCallId = String(part.toolCallId ?? part.id ?? "");
    const toolName = String(part.toolName ?? part.name ?? "");
    return { type: "tool-call", toolCallId, toolName, args: parseMaybe(part.input ?? part.args ?? part.arguments ?? null) ?? null };
  }
  return undefined;
}

function toolResultOf(part: Loose): ToolResultPart | undefined {
  if (part.type !== "tool-result" && part.type !== "tool_call_response") return undefined;
  const output = part.output ?? part.result ?? part.response ?? null;
  const value = isObject(output) && "value" in output && typeof output.type === "string" ? output.value : output;
  const isError = isObject(output) && typeof output.type === "string" && output.type.startsWith("error");
  return { type: "tool-result", toolCallId: String(part.toolCallId ?? part.id ?? ""), toolName: String(part.toolName ?? part.name ?? ""), result: parseMaybe(value), isError };
}

/** An assistant message from content parts (text and tool calls in order). */
export function assistantOf(parts: Loose[]): AssistantMessage {
  const content: Array<TextPart | ToolCallPart> = [];
  for (const part of parts) {
    const text = textOfPart(part);
    if (text !== undefined) content.push({ type: "text", text });
    const call = toolCallOf(part);
    if (call) content.push(call);
  }
  return { role: "assistant", content };
}

/** A conversation (system messages are returned apart). Undefined when `value` is no list of messages. */
export function conversationOf(value: unknown): { messages: Message[]; system?: string } | undefined {
  const list = parseMaybe(value);
  if (!Array.isArray(list)) return undefined;
  const messages: Message[] = [];
  const system: string[] = [];
  for (const raw of list) {
    if (!isObject(raw)) continue;
    const parts = partsOf(raw);
    const text = parts
      .map(textOfPart)
      .filter((part) => part !== undefined)
      .join("");
    if (raw.role === "system") system.push(text);
    else if (raw.role === "user") messages.push({ role: "user", content: text });
    else if (raw.role === "assistant") messages.push(assistantOf(parts));
    else if (raw.role === "tool") messages.push({ role: "tool", content: parts.map(toolResultOf).filter((part) => part !== undefined) });
  }
  return { messages, ...(system.length > 0 ? { system: system.join("\n") } : {}) };
}

/** The assistant's answer in GenAI `gen_ai.output.messages` (its first assistant message). */
export function outputMessageOf(value: unknown): AssistantMessage | undefined {
  const list = parseMaybe(value);
  if (!Array.isArray(list)) return undefined;
  const first = list.find((message) => isObject(message) && (message.role === "assistant" || message.role === undefined));
  return isObject(first) ? assistantOf(partsOf(first)) : undefined;
}

/** AI SDK `ai.response.toolCalls`: `[{ toolCallId, toolName, input }]`. */
export function toolCallsOf(value: unknown): ToolCallPart[] {
  const list = parseMaybe(value);
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).map((call) => toolCallOf({ ...call, type: "tool-call" })!);
}

/** A run's input as the header keeps it: the one user text, or the whole conversation. */
export function runInputOf(messages: Message[]): string | Message[] | undefined {
  if (messages.length === 0) return undefined;
  const only = messages[0];
  return messages.length === 1 && only?.role === "user" ? only.content : messages;
}
