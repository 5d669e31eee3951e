/**
 * A journal run as OTLP traces (ExportTraceServiceRequest in OTLP/JSON) with GenAI semantic
 * convention attributes, so runs can be seen in any OTLP tool; `POST /v1/traces` maps them back.
 * Invariants:
 * - secrets are redacted (lib/inspect/redact.ts) before anything leaves: the same rule as the server;
 * - ids are derived from the run id and record names, so exporting a run twice sends the same spans
 *   (a collector, or Backtrack itself, drops the second copy);
 * - span starts are at least a millisecond apart, in record order, so the order survives the
 *   millisecond start stamps of an ingest;
 * - the root span carries `backtrack.run_id`: ingesting the export recreates the run under its id.
 * Sub-agent runs are not included: export each on its own.
 */
import { createHash } from "node:crypto";
import type { HeaderPayload, ModelPayload, ToolResultPayload } from "../agent/payloads";
import type { Message } from "../agent/messages";
import { BadInputError, RunNotFoundError } from "../journal/errors";
import { RUN_START } from "../journal/names";
import type { Journal } from "../journal/ports";
import type { JournalRecord } from "../journal/types";
import { redactSecrets, type RedactOptions } from "../inspect/redact";

interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
  status: { code: number; message?: string };
}

function hexId(bytes: number, ...parts: string[]): string {
  return createHash("sha256")
    .update(parts.join("\u0000"))
    .digest("hex")
    .slice(0, bytes * 2);
}

function attribute(key: string, raw: unknown): { key: string; value: Record<string, unknown> } {
  if (typeof raw === "number") return { key, value: Number.isInteger(raw) ? { intValue: String(raw) } : { doubleValue: raw } };
  if (typeof raw === "boolean") return { key, value: { boolValue: raw } };
  return { key, value: { stringValue: typeof raw === "string" ? raw : JSON.stringify(raw) } };
}

function attributes(entries: Record<string, unknown>): JsonSpan["attributes"] {
  return Object.entries(entries)
    .filter(([, raw]) => raw !== undefined)
    .map(([key, raw]) => attribute(key, raw));
}

/** Journal messages as GenAI semconv messages (`{ role, parts }`). */
function genAiMessages(messages: Message[]): unknown[] {
  return messages.map((message) => {
    if (message.role === "user") return { role: "user", parts: [{ type: "text", content: message.content }] };
    if (message.role === "tool") return { role: "tool", parts: message.content.map((part) => ({ type: "tool_call_response", id: part.toolCallId, response: part.result })) };
    return {
      role: "assistant",
      parts: message.content.map((part) =>
        part.type === "text" ? { type: "text", content: part.text } : { type: "tool_call", id: part.toolCallId, name: part.toolName, arguments: part.args },
      ),
    };
  });
}

const ms = (iso: string) => Date.parse(iso);
const ns = (milliseconds: number) => `${Math.round(milliseconds)}000000`;

/** The run (not its sub-agent runs) as an OTLP/JSON ExportTraceServiceRequest. */
export async function exportRunOtlp(store: Journal, runId: string, redact: RedactOptions = {}): Promise<unknown> {
  const summary = await store.run(runId);
  if (!summary) throw new RunNotFoundError(runId);
  const records = redactSecrets(await store.history(runId), redact) as JournalRecord[];
  const traceId = hexId(16, "backtrack-trace", runId);
  const rootId = hexId(8, "backtrack-span", runId, RUN_START);
  const header = (records.find((record) => record.name === RUN_START)?.payload ?? {}) as Partial<HeaderPayload>;
  const agent = header.agent ?? summary.agent ?? "agent";
  const spans: JsonSpan[] = [];
  // Starts a millisecond apart at least, in record order (see the invariants above).
  let clock = ms(records[0]?.createdAt ?? summary.startedAt);
  const rootStart = clock;
  const attemptAt = new Map<string, number>();
  const span = (name: string, startMs: number, endMs: number, fields: Record<string, unknown>, id: string, failed = false): JsonSpan => ({
    ...{ traceId, spanId: hexId(8, "backtrack-span", runId, id), parentSpanId: rootId, name, kind: 1 },
    ...{ startTimeUnixNano: ns(startMs), endTimeUnixNano: ns(Math.max(startMs, endMs)), attributes: attributes(fields), status: { code: failed ? 2 : 1 } },
  });
  for (const record of records) {
    const at = ms(record.createdAt);
    if (record.kind === "attempt") attemptAt.set(record.name.replace(/:attempt$/, ""), at);
    if (record.kind === "model") {
      const payload = record.payload as Partial<ModelPayload> & { input?: Message[] };
      clock = Math.max(clock + 1, at - (payload.durationMs ?? 0));
      spans.push(
        span(
          `chat ${payload.model ?? ""}`.trim(),
          clock,
          Math.max(at, clock),
          {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": payload.model,
            "gen_ai.usage.input_tokens": payload.usage?.inputTokens,
            "gen_ai.usage.output_tokens": payload.usage?.outputTokens,
            "gen_ai.input.messages": payload.input ? JSON.stringify(genAiMessages(payload.input)) : undefined,
            "gen_ai.output.messages": payload.message ? JSON.stringify(genAiMessages([payload.message])) : undefined,
          },
          record.name,
        ),
      );
    } else if (record.kind === "tool_result") {
      const payload = record.payload as Partial<ToolResultPayload>;
      clock = Math.max(clock + 1, attemptAt.get(record.name.replace(/:result$/, "")) ?? at - (payload.durationMs ?? 0));
      spans.push(
        span(
          `execute_tool ${payload.toolName ?? ""}`.trim(),
          clock,
          Math.max(at, clock),
          {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": payload.toolName,
            "gen_ai.tool.call.id": payload.toolCallId,
            "gen_ai.tool.call.arguments": JSON.stringify(payload.args ?? null),
            "gen_ai.tool.call.result": JSON.stringify(payload.result ?? null),
          },
          record.name,
          payload.isError === true,
        ),
      );
    }
  }
  const input = header.input === undefined ? undefined : typeof header.input === "string" ? [{ role: "user" as const, content: header.input }] : header.input;
  const rootEnd = Math.max(clock + 1, ms(records.at(-1)?.createdAt ?? summary.updatedAt));
  const root: JsonSpan = {
    ...{ traceId, spanId: rootId, parentSpanId: "", name: `invoke_agent ${agent}`, kind: 1, startTimeUnixNano: ns(rootStart), endTimeUnixNano: ns(rootEnd) },
    attributes: attributes({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": agent,
      "backtrack.run_id": runId,
      "gen_ai.request.model": header.model,
      "gen_ai.input.messages": input ? JSON.stringify(genAiMessages(input)) : undefined,
      "gen_ai.system_instructions": header.system,
    }),
    status: summary.status === "failed" ? { code: 2, message: summary.error ?? "failed" } : { code: summary.status === "complete" ? 1 : 0 },
  };
  return {
    resourceSpans: [
      {
        resource: { attributes: attributes({ "service.name": "backtrack" }) },
        scopeSpans: [{ scope: { name: "backtrack", version: "0.1.0" }, spans: [root, ...spans] }],
      },
    ],
  };
}

/** POSTs an OTLP/JSON request to a collector's traces endpoint; BadInputError when it cannot be reached or refuses. */
export async function pushOtlp(endpoint: string, request: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new BadInputError(`cannot reach the collector at ${endpoint}: ${cause}`, { cause: error });
  }
  const body = await response.text();
  if (!response.ok) throw new BadInputError(`the collector at ${endpoint} answered ${response.status}: ${body.slice(0, 300)}`);
  return { status: response.status, body };
}
