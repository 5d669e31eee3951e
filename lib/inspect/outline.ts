/**
 * The outline of a run: one small entry per record, enough to draw the timeline, the flowchart
 * and the running totals without the payloads. A 100,000-record run outlines to a few megabytes,
 * so the inspector loads the outline whole and fetches full records only around the cursor.
 * Pure; the flowchart nodes it carries are exactly buildFlow's (flow.ts), by construction.
 */
import type { AssistantMessage } from "../agent/messages";
import type { ApprovalPayload, AttemptPayload, HeaderPayload, ModelPayload, SignalPayload, ToolResultPayload, ValuePayload } from "../agent/payloads";
import { RUN_COMPLETE } from "../journal/names";
import { isKnownKind, type JournalRecord } from "../journal/types";
import { flowNode, type FlowNodeKind } from "./flow";

/** What a record draws in the flowchart (a FlowNode without its position-dependent id). */
interface OutlineNode {
  kind: FlowNodeKind;
  label: string;
  failed: boolean;
  childRunIds: string[];
}

export interface OutlineEntry {
  seq: number;
  name: string;
  kind: string;
  /** One line for lists: "LLM → chargeCard", "tool: chargeCard", "attempt: chargeCard", … */
  title: string;
  /** The flowchart node of this record, or null for records that are not drawn. */
  node: OutlineNode | null;
  /** Model records: the turn's usage and how many tool calls it asked for. */
  inputTokens?: number;
  outputTokens?: number;
  toolCalls?: number;
  /** A failed tool result or a denied approval. */
  failed?: boolean;
  /** Signal records: the signal's type (subagent, sleep, interrupt, …). */
  signal?: string;
  /** A sub-agent signal: the run it started. */
  childRunId?: string;
  /** A sub-agent signal: the agent it ran. */
  subAgent?: string;
  /** Whether this record is part of the conversation (the input, a model turn, a tool result). */
  conversation?: boolean;
  /** Record kinds this version does not know (kept from stored data, shown as such). */
  unknown?: boolean;
  /** Model turns and tool results: when the work started and ended (epoch ms; see timing()). Server-side only: the outline route leaves them out. */
  startMs?: number;
  endMs?: number;
  /** Whether startMs came from the record (startedAt) rather than from when it was written less its duration. */
  timed?: boolean;
  /** Model turns: the model id the turn recorded (for its price). Server-side only. */
  model?: string;
}

/** The fields the outline route leaves out: the waterfall and costs are computed on the server. */
export type WireOutlineEntry = Omit<OutlineEntry, "startMs" | "endMs" | "timed" | "model">;

export function wireEntry(entry: OutlineEntry): WireOutlineEntry {
  if (entry.endMs === undefined && entry.model === undefined) return entry;
  const { startMs: _start, endMs: _end, timed: _timed, model: _model, ...wire } = entry;
  return wire;
}

const TITLE_TEXT = 80;

/** A one-line excerpt: whitespace folded, cut with an ellipsis. */
export function excerpt(text: string, length = TITLE_TEXT): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

function object(payload: unknown): Record<string, unknown> {
  return typeof payload === "object" && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>) : {};
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;
}

/** Text and tool-call names of an assistant message, read defensively (stored data may be foreign). */
function modelParts(message: unknown): { text: string; tools: string[] } {
  const content = (object(message) as Partial<AssistantMessage>).content;
  if (!Array.isArray(content)) return { text: "", tools: [] };
  let text = "";
  const tools: string[] = [];
  for (const part of content) {
    const item = object(part);
    if (item.type === "text" && typeof item.text === "string") text += item.text;
    else if (item.type === "tool-call") tools.push(String(item.toolName ?? "?"));
  }
  return { text, tools };
}

function inputText(input: unknown): string {
  if (typeof input === "string") return input;
  if (Array.isArray(input)) {
    return input
      .map((message) => object(message).content)
      .filter((content): content is string => typeof content === "string")
      .join(" ");
  }
  return "";
}

function title(record: JournalRecord, payload: Record<string, unknown>): string {
  switch (record.kind) {
    case "header": {
      const header = payload as Partial<HeaderPayload>;
      const text = excerpt(inputText(header.input), 60);
      return text ? `${record.name}: ${text}` : record.name;
    }
    case "model": {
      const { text, tools } = modelParts((payload as Partial<ModelPayload>).message);
      if (tools.length > 0) return `LLM → ${excerpt(tools.join(", "), 60)}`;
      return text ? `LLM: ${excerpt(text, 60)}` : "LLM";
    }
    case "attempt":
      return `attempt: ${String((payload as Partial<AttemptPayload>).toolName ?? "?")}`;
    case "tool_result": {
      const result = payload as Partial<ToolResultPayload>;
      return `tool: ${String(result.toolName ?? "?")}${result.isError === true ? " ✗" : ""}`;
    }
    case "approval": {
      const approval = payload as Partial<ApprovalPayload>;
      const by = typeof approval.by === "string" ? ` by ${approval.by}` : "";
      return `${approval.approved === true ? "approved ✓" : "denied ✗"} ${String(approval.toolName ?? "")}${by}`.replace(/\s+/g, " ").trim();
    }
    case "value": {
      if (record.name === RUN_COMPLETE) return "run:complete";
      const step = (payload as Partial<ValuePayload>).step;
      return `step: ${typeof step === "string" ? step : record.name}`;
    }
    case "signal": {
      const signal = payload as SignalPayload;
      if (signal.type === "subagent") return `sub-agent: ${String(signal.childRunId ?? "?")}`;
      if (signal.type === "sleep") return `sleep until ${String(signal.wakeAt ?? "?")}`;
      if (signal.type === "interrupt") return `interrupt: ${excerpt(String(signal.question ?? ""), 60)}`;
      if (signal.type === "retrieval" && Array.isArray(signal.documents))
        return `retrieval: ${signal.documents.length} document(s)${typeof signal.query === "string" ? ` for ${excerpt(signal.query, 50)}` : ""}`;
      return `signal: ${String(signal.type ?? record.name)}`;
    }
    default:
      return isKnownKind(record.kind) ? record.name : `unknown kind: ${record.kind}`;
  }
}

/**
 * When a model turn or tool call ran: from its startedAt and durationMs when it has them; a record
 * written before startedAt was journaled ends when it was written and starts its durationMs
 * before (0 when it has none: drawn as an instant).
 */
function timing(record: JournalRecord, payload: Record<string, unknown>): { startMs: number; endMs: number; timed: boolean } | undefined {
  const written = Date.parse(record.createdAt);
  const duration = typeof payload.durationMs === "number" && Number.isFinite(payload.durationMs) ? Math.max(0, payload.durationMs) : 0;
  const started = typeof payload.startedAt === "string" ? Date.parse(payload.startedAt) : Number.NaN;
  if (Number.isFinite(started)) return { startMs: started, endMs: started + duration, timed: true };
  if (!Number.isFinite(written)) return undefined;
  return { startMs: written - duration, endMs: written, timed: false };
}

export function outlineEntry(record: JournalRecord): OutlineEntry {
  const payload = object(record.payload);
  const drawn = flowNode(record, 0);
  const entry: OutlineEntry = {
    seq: record.seq,
    name: record.name,
    kind: record.kind,
    title: title(record, payload),
    node: drawn ? { kind: drawn.kind, label: drawn.label, failed: drawn.failed, childRunIds: drawn.childRunIds } : null,
  };
  if (record.kind === "model") {
    const usage = object(payload.usage);
    entry.inputTokens = count(usage.inputTokens);
    entry.outputTokens = count(usage.outputTokens);
    entry.toolCalls = modelParts(payload.message).tools.length;
  }
  if (record.kind === "model" || record.kind === "tool_result") Object.assign(entry, timing(record, payload));
  if (record.kind === "model" && typeof payload.model === "string") entry.model = payload.model;
  if (record.kind === "tool_result" && payload.isError === true) entry.failed = true;
  if (record.kind === "approval" && payload.approved !== true) entry.failed = true;
  if (record.kind === "signal") entry.signal = String(payload.type ?? "");
  if (record.kind === "signal" && payload.type === "subagent" && typeof payload.childRunId === "string") entry.childRunId = payload.childRunId;
  if (record.kind === "signal" && payload.type === "subagent" && typeof payload.agent === "string") entry.subAgent = payload.agent;
  if (record.kind === "header" || record.kind === "model" || record.kind === "tool_result") entry.conversation = true;
  if (!isKnownKind(record.kind)) entry.unknown = true;
  return entry;
}

export function outline(records: readonly JournalRecord[]): OutlineEntry[] {
  return records.map(outlineEntry);
}
