/**
 * What one span means to the journal (the mapping table of lib/otel/README.md): a run span
 * (`ai.generateText`, `ai.streamText`, `invoke_agent`), a model span (`….doGenerate`,
 * `….doStream`, GenAI `chat`, `text_completion`, `generate_content`), a tool span (`ai.toolCall`,
 * `execute_tool`), or other (counted and dropped). Payloads are built from the span alone, so a
 * span maps the same whichever batch brings it. Pure.
 */
import type { AssistantMessage, Message, ToolCallPart } from "../agent/messages";
import type { HeaderPayload, ModelPayload, ToolResultPayload, AttemptPayload } from "../agent/payloads";
import { conversationOf, outputMessageOf, runInputOf, toolCallsOf } from "./messages";
import { durationMs, jsonAttribute, numberAttribute, stringAttribute, STATUS_ERROR, type OtelSpan } from "./spans";

export type SpanRole = "run" | "model" | "tool" | "other";

const RUN_SPANS = new Set(["ai.generateText", "ai.streamText", "ai.generateObject", "ai.streamObject"]);
const MODEL_SPANS = new Set(["ai.generateText.doGenerate", "ai.streamText.doStream", "ai.generateObject.doGenerate", "ai.streamObject.doStream"]);
const MODEL_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);

/** The attributes that name a trace's run id, in order of preference. */
export const RUN_ID_ATTRIBUTES = ["backtrack.run_id", "ai.telemetry.metadata.runId"];

export function roleOf(span: OtelSpan): SpanRole {
  const operation = stringAttribute(span.attributes, "gen_ai.operation.name");
  if (RUN_SPANS.has(span.name) || operation === "invoke_agent") return "run";
  if (MODEL_SPANS.has(span.name) || (operation !== undefined && MODEL_OPERATIONS.has(operation))) return "model";
  if (span.name === "ai.toolCall" || operation === "execute_tool") return "tool";
  return "other";
}

export function runIdAttribute(span: OtelSpan): string | undefined {
  const value = stringAttribute(span.attributes, ...RUN_ID_ATTRIBUTES);
  return value !== undefined && value.length <= 256 && !value.includes("\u0000") ? value : undefined;
}

export function agentOf(span: OtelSpan): string | undefined {
  return stringAttribute(span.attributes, "gen_ai.agent.name", "ai.telemetry.functionId") ?? span.service ?? undefined;
}

export function modelIdOf(span: OtelSpan): string {
  return stringAttribute(span.attributes, "gen_ai.request.model", "ai.model.id", "gen_ai.response.model") ?? "unknown";
}

/** The messages a model span was sent, when content was captured. */
export function inputOf(span: OtelSpan): { messages: Message[]; system?: string } | undefined {
  const captured = conversationOf(jsonAttribute(span.attributes, "ai.prompt.messages", "gen_ai.input.messages"));
  const system = stringAttribute(span.attributes, "gen_ai.system_instructions");
  if (captured && system && captured.system === undefined) return { ...captured, system };
  return captured;
}

/** A run span's own input (AI SDK `ai.prompt`: `{ system, prompt | messages }`; GenAI `gen_ai.input.messages`). */
export function runInputOfSpan(span: OtelSpan): { input?: string | Message[]; system?: string } {
  const prompt = jsonAttribute(span.attributes, "ai.prompt");
  if (typeof prompt === "object" && prompt !== null && !Array.isArray(prompt)) {
    const fields = prompt as Record<string, unknown>;
    const system = typeof fields.system === "string" ? fields.system : undefined;
    if (typeof fields.prompt === "string") return { input: fields.prompt, ...(system ? { system } : {}) };
    const conversation = conversationOf(fields.messages ?? fields.prompt);
    const input = conversation && runInputOf(conversation.messages);
    return { ...(input ? { input } : {}), ...((system ?? conversation?.system) ? { system: system ?? conversation?.system } : {}) };
  }
  const conversation = inputOf(span);
  const input = conversation && runInputOf(conversation.messages);
  return { ...(input ? { input } : {}), ...(conversation?.system ? { system: conversation.system } : {}) };
}

function answerOf(span: OtelSpan): AssistantMessage {
  const output = outputMessageOf(jsonAttribute(span.attributes, "gen_ai.output.messages"));
  if (output) return output;
  const content: AssistantMessage["content"] = [];
  const text = stringAttribute(span.attributes, "ai.response.text");
  if (text !== undefined) content.push({ type: "text", text });
  content.push(...toolCallsOf(jsonAttribute(span.attributes, "ai.response.toolCalls")));
  return { role: "assistant", content };
}

export function modelPayloadOf(span: OtelSpan): ModelPayload & { input?: Message[]; system?: string; spanId: string } {
  const input = inputOf(span);
  return {
    message: answerOf(span),
    usage: {
      inputTokens: numberAttribute(span.attributes, "gen_ai.usage.input_tokens", "ai.usage.inputTokens", "ai.usage.promptTokens") ?? 0,
      outputTokens: numberAttribute(span.attributes, "gen_ai.usage.output_tokens", "ai.usage.outputTokens", "ai.usage.completionTokens") ?? 0,
    },
    model: modelIdOf(span),
    durationMs: durationMs(span.startNs, span.endNs),
    ...(input ? { input: input.messages, ...(input.system ? { system: input.system } : {}) } : {}),
    spanId: span.spanId,
  };
}

/** The tool calls a model span asked for, in content order. */
export function callsOfModel(payload: { message: AssistantMessage }): ToolCallPart[] {
  return payload.message.content.filter((part): part is ToolCallPart => part.type === "tool-call");
}

export interface ToolCallFacts {
  toolCallId: string;
  toolName: string;
  args: unknown;
}

/** The tool's name alone (no argument parsing). */
export function toolNameOf(span: OtelSpan): string {
  return stringAttribute(span.attributes, "gen_ai.tool.name", "ai.toolCall.name") ?? span.name;
}

export function toolFactsOf(span: OtelSpan): ToolCallFacts {
  return {
    toolCallId: stringAttribute(span.attributes, "gen_ai.tool.call.id", "ai.toolCall.id") ?? span.spanId,
    toolName: stringAttribute(span.attributes, "gen_ai.tool.name", "ai.toolCall.name") ?? span.name,
    args: jsonAttribute(span.attributes, "gen_ai.tool.call.arguments", "ai.toolCall.args") ?? null,
  };
}

export function attemptPayloadOf(span: OtelSpan, facts: ToolCallFacts = toolFactsOf(span)): AttemptPayload & { spanId: string } {
  return { ...facts, idempotencyKey: `otel:${span.traceId}:${span.spanId}`, spanId: span.spanId };
}

/** `facts`: the span's toolFactsOf, when the caller has them (they parse the arguments). */
export function toolResultPayloadOf(span: OtelSpan, facts: ToolCallFacts = toolFactsOf(span)): ToolResultPayload & { spanId: string } {
  const failed = span.status.code === STATUS_ERROR;
  const result = jsonAttribute(span.attributes, "gen_ai.tool.call.result", "ai.toolCall.result");
  return {
    ...facts,
    result: result ?? (failed ? span.status.message || "the tool failed" : null),
    isError: failed,
    durationMs: durationMs(span.startNs, span.endNs),
    spanId: span.spanId,
  };
}

export interface HeaderFacts {
  agent: string;
  parentRunId?: string;
  /** The run span, when it has arrived. */
  runSpan?: OtelSpan;
  /** The run's first model span, whose input stands in for a run span that has not arrived. */
  firstModel?: OtelSpan;
  toolNames: string[];
}

export function headerPayloadOf(facts: HeaderFacts): Partial<HeaderPayload> & { agent: string; tools: string[]; otel: { traceId?: string; spanId?: string } } {
  const own = facts.runSpan ? runInputOfSpan(facts.runSpan) : {};
  const fromModel = facts.firstModel ? inputOf(facts.firstModel) : undefined;
  const modelInput = fromModel && runInputOf(fromModel.messages.filter((message) => message.role !== "assistant" && message.role !== "tool"));
  const input = own.input ?? modelInput;
  const system = own.system ?? fromModel?.system;
  const modelSpan = facts.firstModel ?? facts.runSpan;
  return {
    ...(input !== undefined ? { input } : {}),
    agent: facts.agent,
    model: modelSpan ? modelIdOf(modelSpan) : "unknown",
    ...(system !== undefined ? { system } : {}),
    tools: facts.toolNames,
    ...(facts.parentRunId ? { parentRunId: facts.parentRunId } : {}),
    otel: { traceId: (facts.runSpan ?? facts.firstModel)?.traceId, spanId: facts.runSpan?.spanId },
  };
}

/** The tool names a model span offered (AI SDK `ai.prompt.tools`, GenAI `gen_ai.tool.definitions`). */
export function offeredToolsOf(span: OtelSpan): string[] {
  const raw = span.attributes["ai.prompt.tools"] ?? jsonAttribute(span.attributes, "gen_ai.tool.definitions");
  const list = Array.isArray(raw) ? raw : [];
  const names: string[] = [];
  for (const item of list) {
    let parsed: unknown = item;
    if (typeof item === "string") {
      try {
        parsed = JSON.parse(item);
      } catch {
        continue;
      }
    }
    const name = (parsed as { name?: unknown } | null)?.name;
    if (typeof name === "string" && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The run span's final answer text (run:complete's value). */
export function finalTextOf(span: OtelSpan): string {
  return (
    stringAttribute(span.attributes, "ai.response.text") ??
    outputMessageOf(jsonAttribute(span.attributes, "gen_ai.output.messages"))
      ?.content.map((part) => (part.type === "text" ? part.text : ""))
      .join("") ??
    ""
  );
}
