/**
 * The timeline of a run: its records as steps 0…lastSeq, and the run as it was at any step.
 * Pure projections shared by the inspector page, the API (`/api/runs/{id}/state`) and tests:
 *   timelineOf(outline)      → running totals and flow nodes, built once (O(records));
 *   extendTimeline(t, more)  → the same with more entries (a live run); both by foldSteps,
 *                              which a server also folds chunks of a run with (outline-chunk.ts);
 *   summaryAt(timeline, n)   → usage, counts, status and pause as of step n, in O(1);
 *   stateAt(records, n)      → that summary plus the conversation and tool results so far.
 * Invariant: a run's seqs are dense from 0 (the journal guarantees it), so step n is entries[n].
 */
import type { AssistantMessage } from "../agent/messages";
import type { HeaderPayload, ModelPayload, SignalPayload, ToolResultPayload } from "../agent/payloads";
import type { JournalRecord, PauseState, RunStatus, RunSummary } from "../journal/types";
import { RUN_COMPLETE } from "../journal/names";
import type { FlowNode } from "./flow";
import { outline, type OutlineEntry } from "./outline";

/** A read-only list by position: an array, or a packed list a server decodes on demand. */
export interface Indexed<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/**
 * What the step summaries, the state window and the chart read of a timeline: the browser's
 * Timeline (arrays) and the server's (packed chunks, app/_server/outlines.ts) both are one.
 */
export interface TimelineView {
  entries: Indexed<OutlineEntry>;
  /** The flowchart nodes (the same as buildFlow of the records), ids n0, n1, … */
  nodes: Indexed<FlowNode>;
  /** For step i: the index of the last node drawn at or before it, or -1 (only the start node). */
  nodeAtStep: ArrayLike<number>;
  /** Running totals through step i. */
  inputTokens: ArrayLike<number>;
  outputTokens: ArrayLike<number>;
  modelTurns: ArrayLike<number>;
  toolCalls: ArrayLike<number>;
  failedToolCalls: ArrayLike<number>;
  /** Steps that are part of the conversation (input, model turns, tool results), ascending. */
  conversationSteps: ArrayLike<number>;
  /** Steps that are tool results, ascending. */
  toolResultSteps: ArrayLike<number>;
  /** Sub-agent starts: [step, the run it started], ascending. */
  childStarts: ReadonlyArray<readonly [number, string]>;
  /** The step of run:complete, or -1. */
  completeStep: number;
}

export interface Timeline extends TimelineView {
  entries: OutlineEntry[];
  nodes: FlowNode[];
  nodeAtStep: Int32Array;
  inputTokens: Float64Array;
  outputTokens: Float64Array;
  modelTurns: Int32Array;
  toolCalls: Int32Array;
  failedToolCalls: Int32Array;
  conversationSteps: number[];
  toolResultSteps: number[];
  childStarts: Array<[number, string]>;
}

export interface StepSummary {
  at: number;
  lastSeq: number;
  entry: OutlineEntry | undefined;
  usage: { inputTokens: number; outputTokens: number };
  modelTurns: number;
  toolCalls: number;
  failedToolCalls: number;
  /** The flowchart node of step `at` (the last drawn at or before it), or -1 for the start node. */
  nodeIndex: number;
  /** The run's status as of this step. */
  status: RunStatus;
  /** Why the run waits as of this step, or null. */
  pause: PauseState | null;
}

/** The running totals after some steps: where a fold over the next entries starts. */
export interface StepTotals {
  /** The next step (the seq the next entry must have). */
  steps: number;
  nodes: number;
  inputTokens: number;
  outputTokens: number;
  modelTurns: number;
  toolCalls: number;
  failedToolCalls: number;
  completeStep: number;
}

export const NO_STEPS: StepTotals = { steps: 0, nodes: 0, inputTokens: 0, outputTokens: 0, modelTurns: 0, toolCalls: 0, failedToolCalls: 0, completeStep: -1 };

/**
 * Where a fold writes: per-step columns indexed by step − `offset` (with room for the steps to
 * come), and the lists it appends to. The browser's timeline is one with offset 0; a server's
 * chunk of a run (outline-chunk.ts) is one with the chunk's first step.
 */
export interface StepsOut {
  offset: number;
  nodeAtStep: Int32Array;
  inputTokens: Float64Array;
  outputTokens: Float64Array;
  modelTurns: Int32Array;
  toolCalls: Int32Array;
  failedToolCalls: Int32Array;
  entries: OutlineEntry[];
  nodes: FlowNode[];
  conversationSteps: number[];
  toolResultSteps: number[];
  childStarts: Array<[number, string]>;
}

/**
 * Folds `fresh[from]` … `fresh[to - 1]` into `out`, moving `totals` on; false at a gap in the
 * seqs, where it stops: "step n is entries[n]" must hold. The one fold both timelines are made by.
 */
export function foldSteps(out: StepsOut, totals: StepTotals, fresh: readonly OutlineEntry[], from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) {
    const entry = fresh[index] as OutlineEntry;
    const step = totals.steps;
    if (entry.seq !== step) return false;
    const at = step - out.offset;
    out.entries.push(entry);
    if (entry.node) {
      out.nodes.push({ id: `n${totals.nodes}`, seq: entry.seq, recordName: entry.name, ...entry.node, childRunIds: [...entry.node.childRunIds] });
      totals.nodes += 1;
    }
    totals.inputTokens += entry.inputTokens ?? 0;
    totals.outputTokens += entry.outputTokens ?? 0;
    if (entry.kind === "model") totals.modelTurns += 1;
    if (entry.kind === "tool_result") totals.toolCalls += 1;
    if (entry.kind === "tool_result" && entry.failed) totals.failedToolCalls += 1;
    out.nodeAtStep[at] = totals.nodes - 1;
    out.inputTokens[at] = totals.inputTokens;
    out.outputTokens[at] = totals.outputTokens;
    out.modelTurns[at] = totals.modelTurns;
    out.toolCalls[at] = totals.toolCalls;
    out.failedToolCalls[at] = totals.failedToolCalls;
    if (entry.conversation) out.conversationSteps.push(step);
    if (entry.kind === "tool_result") out.toolResultSteps.push(step);
    if (entry.childRunId !== undefined) out.childStarts.push([step, entry.childRunId]);
    if (entry.kind === "value" && entry.name === RUN_COMPLETE && totals.completeStep < 0) totals.completeStep = step;
    totals.steps += 1;
  }
  return true;
}

const EMPTY = new Int32Array(0);

/** Builds the timeline of a run from its outline (entries in seq order). */
export function timelineOf(entries: readonly OutlineEntry[]): Timeline {
  return extendTimeline(
    {
      entries: [],
      nodes: [],
      nodeAtStep: EMPTY,
      inputTokens: new Float64Array(0),
      outputTokens: new Float64Array(0),
      modelTurns: EMPTY,
      toolCalls: EMPTY,
      failedToolCalls: EMPTY,
      conversationSteps: [],
      toolResultSteps: [],
      childStarts: [],
      completeStep: -1,
    },
    entries,
  );
}

function grow<T extends Int32Array | Float64Array>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length);
  next.set(array);
  return next;
}

/** A copy of `timeline` with room for `length` steps, to append to (only its builder changes it). */
function growing(timeline: Timeline, length: number): Timeline {
  return {
    entries: [...timeline.entries],
    nodes: [...timeline.nodes],
    nodeAtStep: grow(timeline.nodeAtStep, length),
    inputTokens: grow(timeline.inputTokens, length),
    outputTokens: grow(timeline.outputTokens, length),
    modelTurns: grow(timeline.modelTurns, length),
    toolCalls: grow(timeline.toolCalls, length),
    failedToolCalls: grow(timeline.failedToolCalls, length),
    conversationSteps: [...timeline.conversationSteps],
    toolResultSteps: [...timeline.toolResultSteps],
    childStarts: [...timeline.childStarts],
    completeStep: timeline.completeStep,
  };
}

/** The totals after a timeline's last step. */
export function totalsOf(timeline: TimelineView): StepTotals {
  const last = timeline.entries.length - 1;
  if (last < 0) return { ...NO_STEPS };
  return {
    steps: last + 1,
    nodes: timeline.nodes.length,
    inputTokens: timeline.inputTokens[last]!,
    outputTokens: timeline.outputTokens[last]!,
    modelTurns: timeline.modelTurns[last]!,
    toolCalls: timeline.toolCalls[last]!,
    failedToolCalls: timeline.failedToolCalls[last]!,
    completeStep: timeline.completeStep,
  };
}

/**
 * The timeline with more entries appended (a live run). Entries already present (by seq) are
 * ignored, so a late or repeated page does no harm; a gap in the seqs ends it (the caller fetches
 * from there again). Returns a new timeline; the old one is unchanged.
 */
export function extendTimeline(timeline: Timeline, more: readonly OutlineEntry[]): Timeline {
  const fresh = more.filter((entry) => entry.seq >= timeline.entries.length);
  if (fresh.length === 0 && timeline.entries.length > 0) return timeline;
  const next = growing(timeline, timeline.entries.length + fresh.length);
  const totals = totalsOf(timeline);
  foldSteps({ ...next, offset: 0 }, totals, fresh, 0, fresh.length);
  next.completeStep = totals.completeStep;
  return next;
}

/** How many of the ascending `steps` are at or before `at` (binary search). */
export function countThrough(steps: ArrayLike<number>, at: number): number {
  let low = 0;
  let high = steps.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (steps[middle]! <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Clamps a requested step into 0…lastSeq (0 for an empty run). */
export function clampStep(at: number, lastSeq: number): number {
  if (!Number.isFinite(at)) return 0;
  return Math.max(0, Math.min(Math.trunc(at), Math.max(lastSeq, 0)));
}

/**
 * The run as of step `at`. `run` (the summary row) says what the journal cannot: a pause or a
 * failure of the run's latest state, shown only at its last step.
 */
export type RunFacts = Pick<RunSummary, "runId" | "status" | "pause" | "lastSeq">;

export function summaryAt(timeline: TimelineView, at: number, run?: RunFacts | null): StepSummary {
  const lastSeq = timeline.entries.length - 1;
  const step = clampStep(at, lastSeq);
  const entry = timeline.entries.at(step);
  const has = step <= lastSeq && lastSeq >= 0;
  let status: RunStatus = "running";
  let pause: PauseState | null = null;
  if (timeline.completeStep >= 0 && step >= timeline.completeStep) status = "complete";
  else if (run && step >= run.lastSeq && (run.status === "paused" || run.status === "failed")) {
    status = run.status;
    pause = run.pause;
  } else if (entry?.kind === "signal" && (entry.signal === "sleep" || entry.signal === "interrupt")) {
    // The run stopped at this signal; the next record is the run going on.
    status = "paused";
    pause = { reason: entry.signal === "sleep" ? "sleep" : "interrupt", runId: run?.runId ?? "", name: entry.name, message: entry.title };
  }
  return {
    at: step,
    lastSeq,
    entry,
    usage: { inputTokens: has ? timeline.inputTokens[step]! : 0, outputTokens: has ? timeline.outputTokens[step]! : 0 },
    modelTurns: has ? timeline.modelTurns[step]! : 0,
    toolCalls: has ? timeline.toolCalls[step]! : 0,
    failedToolCalls: has ? timeline.failedToolCalls[step]! : 0,
    nodeIndex: has ? timeline.nodeAtStep[step]! : -1,
    status,
    pause,
  };
}

/** One item of the conversation: what the model saw and said, in order. */
export type ConversationItem =
  | { seq: number; role: "system"; text: string }
  | { seq: number; role: "user"; text: string }
  | { seq: number; role: "assistant"; text: string; toolCalls: Array<{ toolCallId: string; toolName: string; args: unknown }> }
  | { seq: number; role: "tool"; toolCallId: string; toolName: string; args: unknown; result: unknown; isError: boolean };

function object(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The conversation items one record contributes (none for records outside the conversation). */
export function conversationItems(record: JournalRecord): ConversationItem[] {
  const payload = object(record.payload);
  if (record.kind === "header") {
    const header = payload as Partial<HeaderPayload>;
    const items: ConversationItem[] = [];
    if (typeof header.system === "string") items.push({ seq: record.seq, role: "system", text: header.system });
    const input = header.input;
    if (typeof input === "string") items.push({ seq: record.seq, role: "user", text: input });
    else if (Array.isArray(input)) {
      for (const message of input) {
        const item = object(message);
        if (typeof item.content === "string")
          items.push({
            seq: record.seq,
            role: item.role === "assistant" ? "assistant" : "user",
            text: item.content,
            ...(item.role === "assistant" ? { toolCalls: [] } : {}),
          } as ConversationItem);
      }
    }
    return items;
  }
  if (record.kind === "model") {
    const message = object((payload as Partial<ModelPayload>).message) as Partial<AssistantMessage>;
    const parts = Array.isArray(message.content) ? message.content : [];
    let text = "";
    const toolCalls: Array<{ toolCallId: string; toolName: string; args: unknown }> = [];
    for (const raw of parts) {
      const part = object(raw);
      if (part.type === "text" && typeof part.text === "string") text += part.text;
      else if (part.type === "tool-call") toolCalls.push({ toolCallId: String(part.toolCallId ?? ""), toolName: String(part.toolName ?? "?"), args: part.args ?? null });
    }
    return [{ seq: record.seq, role: "assistant", text, toolCalls }];
  }
  if (record.kind === "tool_result") {
    const result = payload as Partial<ToolResultPayload>;
    return [
      {
        seq: record.seq,
        role: "tool",
        toolCallId: String(result.toolCallId ?? ""),
        toolName: String(result.toolName ?? "?"),
        args: result.args ?? null,
        result: result.result ?? null,
        isError: result.isError === true,
      },
    ];
  }
  return [];
}

export interface ToolResultSoFar {
  seq: number;
  toolName: string;
  args: unknown;
  result: unknown;
  isError: boolean;
  childRunIds: string[];
}

export function toolResultOf(record: JournalRecord): ToolResultSoFar {
  const result = object(record.payload) as Partial<ToolResultPayload>;
  return {
    seq: record.seq,
    toolName: String(result.toolName ?? "?"),
    args: result.args ?? null,
    result: result.result ?? null,
    isError: result.isError === true,
    childRunIds: Array.isArray(result.childRunIds) ? result.childRunIds.filter((id): id is string => typeof id === "string") : [],
  };
}

interface StepState extends StepSummary {
  record: JournalRecord | undefined;
  conversation: ConversationItem[];
  toolResults: ToolResultSoFar[];
  /** Sub-agent runs started so far. */
  childRunIds: string[];
}

/** The run exactly as it was at step `at`: what the API serves and the page shows. */
export function stateAt(records: readonly JournalRecord[], at: number, run?: RunFacts | null): StepState {
  const timeline = timelineOf(outline(records));
  const summary = summaryAt(timeline, at, run);
  const upTo = records.slice(0, records.length === 0 ? 0 : summary.at + 1);
  const childRunIds: string[] = [];
  for (const record of upTo) {
    const payload = object(record.payload) as Partial<SignalPayload>;
    if (record.kind === "signal" && payload.type === "subagent" && typeof payload.childRunId === "string") childRunIds.push(payload.childRunId);
  }
  return {
    ...summary,
    record: records[summary.at],
    conversation: upTo.flatMap(conversationItems),
    toolResults: upTo.filter((record) => record.kind === "tool_result").map(toolResultOf),
    childRunIds,
  };
}
