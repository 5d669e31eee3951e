/**
 * What one span means to the journal (the mapping table of lib/otel/README.md): a run span
 * (`ai.generateText`, `ai.streamText`, `invoke_agent`), a model span (`….doGenerate`,
 * `….doStream`, GenAI `chat`, `text_completion`, `generate_content`), a tool span (`ai.toolCall`,
 * `execute_tool`), a retrieval (OpenInference `RETRIEVER`), or other (counted and dropped).
 * OpenInference spans (`openinference.span.kind`, read by openinference.ts) map to the same roles:
 * `AGENT` and a top `CHAIN` are runs, `LLM` model turns, `TOOL` tool calls. Payloads are built from
 * the span alone, so a span maps the same whichever batch brings it. Pure.
 */
import type { AssistantMessage, Message, ToolCallPart } from "../agent/messages";
import type { HeaderPayload, ModelPayload, ToolResultPayload, AttemptPayload } from "../agent/payloads";
import { conversationOf, outputMessageOf, runInputOf, toolCallsOf } from "./messages";
import { openInferenceContext, openInferenceKind, openInferenceMessages, openInferenceText, openInferenceTools, openInferenceValue, toolOutputOf } from "./openinference";
import { durationMs, jsonAttribute, numberAttribute, stringAttribute, STATUS_ERROR, type OtelSpan } from "./spans";

export type SpanRole = "run" | "model" | "tool" | "retrieval" | "other";

const RUN_SPANS = new Set(["ai.generateText", "ai.streamText", "ai.generateObject", "ai.streamObject"]);
const MODEL_SPANS = new Set(["ai.generateText.doGenerate", "ai.streamText.doStream", "ai.generateObject.doGenerate", "ai.streamObject.doStream"]);
const MODEL_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);

/** The attributes that name a trace's run id, in order of preference. */
export const RUN_ID_ATTRIBUTES = ["backtrack.run_id", "ai.telemetry.metadata.runId"];

/** An OpenInference span's role: a CHAIN is the run only at the top of its trace (nested chains are steps of it). */
function openInferenceRole(kind: string, span: OtelSpan): SpanRole {
  if (kind === "AGENT" || (kind === "CHAIN" && span.parentSpanId === null)) return "run";
  if (kind === "LLM") return "model";
  if (kind === "TOOL") return "tool";
  return kind === "RETRIEVER" ? "retrieval" : "other";
}

export function roleOf(span: OtelSpan): SpanRole {
  const kind = openInferenceKind(span);
  if (kind !== undefined) return openInferenceRole(kind, span);
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
  const named = stringAttribute(span.attributes, "gen_ai.agent.name", "ai.telemetry.functionId", "agent.name");
  // An OpenInference run span's name is the agent's (traceAgent's name, LangChain's runName).
  return named ?? (openInferenceKind(span) !== undefined && roleOf(span) === "run" ? span.name : undefined) ?? span.service ?? undefined;
}

export function modelIdOf(span: OtelSpan): string {
  return (
    stringAttribute(span.attributes, "gen_ai.request.model", "ai.model.id", "gen_ai.response.model", "llm.model_name", "llm.request.model_name", "llm.response.model_name") ??
    "unknown"
  );
}

/** The messages a model span was sent, when content was captured. */
export function inputOf(span: OtelSpan): { messages: Message[]; system?: string } | undefined {
  const captured = conversationOf(jsonAttribute(span.attributes, "ai.prompt.messages", "gen_ai.input.messages") ?? openInferenceMessages(span.attributes, "llm.input_messages"));
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
  const input = (conversation && runInputOf(conversation.messages)) ?? (openInferenceKind(span) ? openInferenceText(span.attributes, "input") : undefined);
  return { ...(input ? { input } : {}), ...(conversation?.system ? { system: conversation.system } : {}) };
}

function answerOf(span: OtelSpan): AssistantMessage {
  const output = outputMessageOf(jsonAttribute(span.attributes, "gen_ai.output.messages") ?? openInferenceMessages(span.attributes, "llm.output_messages"));
  if (output) return output;
  const content: AssistantMessage["content"] = [];
  const text = stringAttribute(span.attributes, "ai.response.text");
  if (text !== undefined) content.push({ type: "text", text });
  content.push(...toolCallsOf(jsonAttribute(span.attributes, "ai.response.toolCalls")));
  return { role: "assistant", content };
}

/** The model's settings (OpenInference `llm.invocation_parameters`), without what the payload holds elsewhere. */
function settingsOf(span: OtelSpan): Record<string, unknown> | undefined {
  const parameters = jsonAttribute(span.attributes, "llm.invocation_parameters");
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) return undefined;
  const { messages: _messages, tools: _tools, model: _model, ...settings } = parameters as Record<string, unknown>;
  return Object.keys(settings).length > 0 ? settings : undefined;
}

export function modelPayloadOf(span: OtelSpan): ModelPayload & { input?: Message[]; system?: string; settings?: Record<string, unknown>; spanId: string } {
  const input = inputOf(span);
  const settings = settingsOf(span);
  return {
    message: answerOf(span),
    usage: {
      inputTokens: numberAttribute(span.attributes, "gen_ai.usage.input_tokens", "ai.usage.inputTokens", "ai.usage.promptTokens", "llm.token_count.prompt") ?? 0,
      outputTokens: numberAttribute(span.attributes, "gen_ai.usage.output_tokens", "ai.usage.outputTokens", "ai.usage.completionTokens", "llm.token_count.completion") ?? 0,
    },
    model: modelIdOf(span),
    durationMs: durationMs(span.startNs, span.endNs),
    ...(input ? { input: input.messages, ...(input.system ? { system: input.system } : {}) } : {}),
    ...(settings ? { settings } : {}),
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
  return stringAttribute(span.attributes, "gen_ai.tool.name", "ai.toolCall.name", "tool.name") ?? span.name;
}

export function toolFactsOf(span: OtelSpan): ToolCallFacts {
  return {
    toolCallId: stringAttribute(span.attributes, "gen_ai.tool.call.id", "ai.toolCall.id", "tool_call.id", "tool.id") ?? span.spanId,
    toolName: toolNameOf(span),
    // OpenInference: a TOOL span's arguments are its input.value.
    args:
      jsonAttribute(span.attributes, "gen_ai.tool.call.arguments", "ai.toolCall.args") ??
      (openInferenceKind(span) ? openInferenceValue(span.attributes, "input") : undefined) ??
      null,
  };
}

export function attemptPayloadOf(span: OtelSpan, facts: ToolCallFacts = toolFactsOf(span)): AttemptPayload & { spanId: string; parameters?: unknown } {
  // OpenInference `tool.parameters`: the tool's parameter definition, kept beside the arguments.
  const parameters = jsonAttribute(span.attributes, "tool.parameters");
  // Fields named one by one, not spread: the hot path of every tool span (facts holds these three).
  const idempotencyKey = `otel:${span.traceId}:${span.spanId}`;
  if (parameters === undefined) return { toolCallId: facts.toolCallId, toolName: facts.toolName, args: facts.args, idempotencyKey, spanId: span.spanId };
  return { toolCallId: facts.toolCallId, toolName: facts.toolName, args: facts.args, idempotencyKey, parameters, spanId: span.spanId };
}

/** `facts`: the span's toolFactsOf, when the caller has them (they parse the arguments). */
export function toolResultPayloadOf(span: OtelSpan, facts: ToolCallFacts = toolFactsOf(span)): ToolResultPayload & { spanId: string } {
  const failed = span.status.code === STATUS_ERROR;
  const result =
    jsonAttribute(span.attributes, "gen_ai.tool.call.result", "ai.toolCall.result") ??
    (openInferenceKind(span) ? toolOutputOf(openInferenceValue(span.attributes, "output")) : undefined);
  return {
    toolCallId: facts.toolCallId,
    toolName: facts.toolName,
    args: facts.args,
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
    otel: { traceId: (facts.runSpan ?? facts.firstModel)?.traceId, spanId: facts.runSpan?.spanId, ...(facts.runSpan ? openInferenceContext(facts.runSpan.attributes) : {}) },
  };
}

/** The tool names a model span offered (AI SDK `ai.prompt.tools`, GenAI `gen_ai.tool.definitions`). */
export function offeredToolsOf(span: OtelSpan): string[] {
  const raw = span.attributes["ai.prompt.tools"] ?? jsonAttribute(span.attributes, "gen_ai.tool.definitions");
  const list = Array.isArray(raw) ? raw : [];
  const names: string[] = openInferenceTools(span.attributes);
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
    (openInferenceKind(span) ? openInferenceText(span.attributes, "output") : undefined) ??
    ""
  );
}
