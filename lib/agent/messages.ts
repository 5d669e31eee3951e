/** The conversation format the loop, the journal and every model adapter share. */

export interface TextPart {
  type: "text";
  text: string;
}

export interface ToolCallPart {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  args: unknown;
}

export interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  result: unknown;
  isError: boolean;
}

export interface UserMessage {
  role: "user";
  content: string;
}

export interface AssistantMessage {
  role: "assistant";
  content: Array<TextPart | ToolCallPart>;
}

export interface ToolMessage {
  role: "tool";
  content: ToolResultPart[];
}

export type Message = UserMessage | AssistantMessage | ToolMessage;

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

export function textOf(message: AssistantMessage | undefined): string {
  if (!message) return "";
  return message.content
    .filter((part): part is TextPart => part.type === "text")
    .map((part) => part.text)
    .join("");
}

export function toolCallsOf(message: AssistantMessage | undefined): ToolCallPart[] {
  if (!message) return [];
  return message.content.filter((part): part is ToolCallPart => part.type === "tool-call");
}

/** The input a run starts from: a user message, or a whole conversation. */
export type RunInput = string | Message[];

export function inputMessages(input: RunInput): Message[] {
  return typeof input === "string" ? [{ role: "user", content: input }] : input;
}
