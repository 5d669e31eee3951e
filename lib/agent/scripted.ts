/**
 * Scripted models: deterministic models for demos, tests and CI. A script maps a request to a
 * reply; the same request always gets the same reply, whatever the instance has seen before, so a
 * scripted model can be resumed, replayed and shared across processes. Part of the product (the
 * demo runs on it), not a test double; exported from `backtrack/testing`. It lives in lib/agent
 * because it implements the Model port alone and the demo, the tests and that entry all use it.
 */
import type { AssistantMessage, Message } from "./messages";
import type { Model, ModelRequest, ModelStreamPart } from "./model";
import { delay } from "./delay";

export interface ScriptedReply {
  text?: string;
  toolCalls?: Array<{ name: string; args: unknown }>;
}

/** `turn` is how many assistant messages the request already holds. */
export type Script = (request: ModelRequest, turn: number) => ScriptedReply;

export interface ScriptedOptions {
  /** Wait this long before answering (the live demo). */
  delayMs?: number;
  /** Characters per streamed text delta. */
  chunkSize?: number;
}

export function scriptedModel(id: string, script: Script | ScriptedReply[], options: ScriptedOptions = {}): Model {
  const chunkSize = options.chunkSize ?? 24;
  const reply: Script = Array.isArray(script) ? (_request, turn) => script[turn] ?? { text: "(the script has no more turns)" } : script;
  const slug = id.replace(/[^A-Za-z0-9]+/g, "-");
  return {
    id,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      const turn = request.messages.filter((message) => message.role === "assistant").length;
      const { text = "", toolCalls = [] } = reply(request, turn);
      if (options.delayMs) await delay(options.delayMs, request.signal);
      for (let at = 0; at < text.length; at += chunkSize) yield { type: "text-delta", text: text.slice(at, at + chunkSize) };
      const message: AssistantMessage = {
        role: "assistant",
        content: [
          ...(text ? [{ type: "text" as const, text }] : []),
          ...toolCalls.map((call, index) => ({
            type: "tool-call" as const,
            toolCallId: `${slug}-${turn}-${index}`,
            toolName: call.name,
            args: call.args,
          })),
        ],
      };
      yield { type: "finish", message, usage: { inputTokens: estimateTokens(request), outputTokens: Math.ceil((text.length + JSON.stringify(toolCalls).length) / 4) } };
    },
  };
}

/** A rough, deterministic token count: four characters a token. */
function estimateTokens(request: ModelRequest): number {
  return Math.ceil(((request.system ?? "").length + JSON.stringify(request.messages).length) / 4);
}

/** The text of the first user message in a request. */
export function userText(messages: readonly Message[]): string {
  const first = messages.find((message) => message.role === "user");
  return first && typeof first.content === "string" ? first.content : "";
}

/** Results of the tool calls answered so far, newest last. */
export function toolResults(messages: readonly Message[]): Array<{ toolName: string; result: unknown; isError: boolean }> {
  return messages.flatMap((message) => (message.role === "tool" ? message.content : []));
}
