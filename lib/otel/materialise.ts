/**
 * Turning a trace's staged spans into journal records, append-only. Pure: the staged trace, the
 * spans just received and the runs they may touch in; one TraceWrite out.
 *
 * Invariants:
 * - a span is journaled once (its span id is the key; a duplicate is dropped), and records once
 *   written never move: the inspector's caches and live pages rely on it;
 * - new records of a run are appended in span start order (ties: parent first, then the span that
 *   ended first), after the records already written; run:start is the first record of a run and
 *   run:complete is written when the run's own span arrives, which ends after its children;
 * - a retrieval span (OpenInference RETRIEVER) is a `signal` record `otel:<spanId>:retrieval`;
 * - a span's run is its nearest run-span ancestor's (`invoke_agent` or `ai.generateText` inside
 *   another run span is a sub-agent run `<parent>.<spanId>`). A span whose parent has not arrived
 *   waits, staged, until it does or until the trace's top run span arrives; AI SDK spans do not
 *   wait (their unknown parent is their generateText/streamText span, the run);
 * - names follow the native loop's (`turn:<t>`, `turn:<t>:call:<i>:attempt|result`), so the diff,
 *   replay and flowchart read ingested runs as they read native ones;
 * - a run id that belongs to a run not journaled from this trace is refused: its spans are rejected.
 */
import { RUN_COMPLETE, RUN_START } from "../journal/names";
import type { StagedSpan, StagedTrace, TraceRunState, TraceRunWrite, TraceWrite } from "../journal/ports";
import {
  agentOf,
  attemptPayloadOf,
  callsOfModel,
  finalTextOf,
  headerPayloadOf,
  modelPayloadOf,
  offeredToolsOf,
  roleOf,
  runIdAttribute,
  toolFactsOf,
  toolNameOf,
  toolResultPayloadOf,
  type SpanRole,
} from "./map";
import { retrievalPayloadOf } from "./openinference";
import { compareNs, nsToIso, STATUS_ERROR, type OtelSpan } from "./spans";

/** What a journaled span leaves for later ones. */
export interface SpanNote {
  role: SpanRole;
  turn?: number;
  callIds?: string[];
  call?: number;
  names?: string[];
}

interface Node {
  spanId: string;
  parentSpanId: string | null;
  startNs: string;
  /** Number(startNs) / 1e6, for ordering (computed once, not once a comparison). */
  startMs: number;
  runId: string | null;
  note: SpanNote | null;
  span: OtelSpan | null;
  role: SpanRole;
  isNew: boolean;
}

export interface TracePlan {
  write: TraceWrite | null;
  accepted: number;
  rejected: number;
  reasons: string[];
}

/** Per run: turns written so far and the tool-call ids of each. */
interface RunBook {
  turns: Array<{ callIds: string[]; used: Set<number> }>;
  names: Set<string>;
}

function nodesOf(trace: StagedTrace, incoming: readonly OtelSpan[]): Map<string, Node> {
  const nodes = new Map<string, Node>();
  for (const staged of trace.spans) {
    const span = (staged.data ?? null) as OtelSpan | null;
    const note = (staged.note ?? null) as SpanNote | null;
    nodes.set(staged.spanId, {
      ...{ spanId: staged.spanId, parentSpanId: staged.parentSpanId, startNs: staged.startNs, startMs: Number(staged.startNs) / 1e6, runId: staged.runId, note, span },
      ...{ role: note?.role ?? (span ? roleOf(span) : "other"), isNew: false },
    });
  }
  for (const span of incoming) {
    if (nodes.has(span.spanId)) continue;
    nodes.set(span.spanId, {
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      startNs: span.startNs,
      startMs: Number(span.startNs) / 1e6,
      runId: null,
      note: null,
      span,
      role: roleOf(span),
      isNew: true,
    });
  }
  return nodes;
}

/** The run span nearest above `node` (not itself), or "unknown" where the chain breaks, or null at the top. */
function runAncestor(nodes: Map<string, Node>, node: Node): Node | null | "unknown" {
  const seen = new Set<string>();
  for (let parentId = node.parentSpanId; parentId !== null;) {
    if (seen.has(parentId)) return null;
    seen.add(parentId);
    const parent = nodes.get(parentId);
    if (!parent) return "unknown";
    if (parent.role === "run") return parent;
    parentId = parent.parentSpanId;
  }
  return null;
}

/** Exporters stamp span starts to the millisecond (OTel JS) but ends to the nanosecond. */
const START_PRECISION_MS = 1;

/**
 * Start order. Starts within a millisecond of each other are not told apart by their stamps: then
 * the parent goes first and, among siblings, the one that ended first (sequential steps end in the
 * order they start).
 */
function order(a: Node, b: Node, depth: (node: Node) => number): number {
  const apart = a.startMs - b.startMs;
  if (Math.abs(apart) >= START_PRECISION_MS) return apart;
  if (causes(a, b)) return -1;
  if (causes(b, a)) return 1;
  return depth(a) - depth(b) || compareNs(a.span?.endNs ?? "0", b.span?.endNs ?? "0") || compareNs(a.startNs, b.startNs) || (a.spanId < b.spanId ? -1 : 1);
}

/** Whether `later` needed `first`'s outcome: a tool call a model asked for, a model that read a tool's result. */
function causes(first: Node, later: Node): boolean {
  if (!first.span || !later.span) return false;
  if (first.role === "model" && later.role === "tool") return callsOfModel(modelPayloadOf(first.span)).some((call) => call.toolCallId === toolFactsOf(later.span!).toolCallId);
  if (first.role === "tool" && later.role === "model") {
    const id = toolFactsOf(first.span).toolCallId;
    return (modelPayloadOf(later.span).input ?? []).some((message) => message.role === "tool" && message.content.some((part) => part.toolCallId === id));
  }
  return false;
}

type RunOf = Map<string, { runId: string; parentRunId: string | null }>;

/** The depth of each node in the staged tree (0 at a span whose parent is unknown), memoised. */
function depthOf(nodes: Map<string, Node>): (node: Node) => number {
  const cache = new Map<string, number>();
  const depth = (node: Node): number => {
    let value = cache.get(node.spanId);
    if (value !== undefined) return value;
    const parent = node.parentSpanId ? nodes.get(node.parentSpanId) : undefined;
    value = parent && parent !== node ? Math.min(depth(parent) + 1, 10_000) : 0;
    cache.set(node.spanId, value);
    return value;
  };
  return depth;
}

/** Which run each run span stands for (the top one the trace's run, nested ones sub-agent runs); a span left out waits. */
function runsOfRunSpans(nodes: Map<string, Node>, runSpans: Node[], traceRunId: string, topArrived: boolean, depth: (node: Node) => number): RunOf {
  const runOf: RunOf = new Map();
  let topSeen = false;
  for (const node of [...runSpans].sort((a, b) => depth(a) - depth(b) || compareNs(a.startNs, b.startNs))) {
    const above = runAncestor(nodes, node);
    const aiSdk = node.span?.name.startsWith("ai.") === true;
    if (node.runId) runOf.set(node.spanId, { runId: node.runId, parentRunId: null });
    else if (above === null || (above === "unknown" && aiSdk && !topArrived)) {
      runOf.set(node.spanId, topSeen ? { runId: `${traceRunId}.${node.spanId}`, parentRunId: traceRunId } : { runId: traceRunId, parentRunId: null });
      topSeen = true;
    } else if (above === "unknown") {
      // Under a parent that has not arrived: a sub-agent of the top run once that is here, else it waits.
      if (topArrived) runOf.set(node.spanId, { runId: `${traceRunId}.${node.spanId}`, parentRunId: traceRunId });
    } else {
      const parentRun = runOf.get(above.spanId)?.runId;
      if (parentRun !== undefined) runOf.set(node.spanId, { runId: `${parentRun}.${node.spanId}`, parentRunId: parentRun });
    }
  }
  return runOf;
}

/** Plans the write of one trace. `runs` holds the state of every run id the trace may touch. */
export function planTrace(trace: StagedTrace, incoming: readonly OtelSpan[], runs: ReadonlyMap<string, TraceRunState>, claimed: Set<string> = new Set()): TracePlan {
  const nodes = nodesOf(trace, incoming);
  const fresh = [...nodes.values()].filter((node) => node.isNew);
  const plan: TracePlan = { write: null, accepted: 0, rejected: 0, reasons: [] };
  const traceRunId = trace.runIds[0] ?? firstRunId(nodes) ?? trace.traceId;
  const runSpans = [...nodes.values()].filter((node) => node.role === "run").sort((a, b) => compareNs(a.startNs, b.startNs));
  const depth = depthOf(nodes);
  const topArrived = runSpans.some((node) => runAncestor(nodes, node) === null);
  const runOf = runsOfRunSpans(nodes, runSpans, traceRunId, topArrived, depth);
  // Where each waiting span goes now (or stays waiting).
  const assigned = new Map<string, Node[]>();
  const waiting: Node[] = [];
  for (const node of nodes.values()) {
    if (node.runId !== null || !node.span) continue;
    if (node.role === "other") continue;
    let runId: string | undefined;
    if (node.role === "run") runId = runOf.get(node.spanId)?.runId;
    else {
      const above = runAncestor(nodes, node);
      if (above !== null && above !== "unknown") runId = runOf.get(above.spanId)?.runId;
      else if (above === null || topArrived || node.span.name.startsWith("ai.")) runId = traceRunId;
    }
    if (runId === undefined) waiting.push(node);
    else if (assigned.has(runId)) assigned.get(runId)!.push(node);
    else assigned.set(runId, [node]);
  }
  const books = booksOf(nodes);
  const runWrites: TraceRunWrite[] = [];
  const spans: StagedSpan[] = [];
  const journaled = new Set<string>();
  for (const [runId, members] of assigned) {
    const state = runs.get(runId);
    // A run another trace of this request creates is taken, as one already stored.
    if ((state && (state.origin !== "otel" || !trace.runIds.includes(runId))) || (!state && claimed.has(runId))) {
      const newcomers = members.filter((node) => node.isNew).length;
      plan.rejected += newcomers;
      if (newcomers > 0) plan.reasons.push(`run "${runId}" already exists and was not journaled from trace ${trace.traceId}: its spans were rejected`);
      for (const node of members) node.isNew = false;
      continue;
    }
    const runSpan = runSpans.find((node) => runOf.get(node.spanId)?.runId === runId);
    const write = runWrite(
      runId,
      members.sort((a, b) => order(a, b, depth)),
      state,
      books.get(runId) ?? { turns: [], names: new Set() },
      {
        runSpan: runSpan?.span ?? undefined,
        parentRunId: runSpan ? (runOf.get(runSpan.spanId)?.parentRunId ?? null) : null,
      },
    );
    runWrites.push(write.run);
    if (write.run.create) claimed.add(runId);
    for (const node of members) {
      journaled.add(node.spanId);
      spans.push({
        traceId: trace.traceId,
        spanId: node.spanId,
        parentSpanId: node.parentSpanId,
        startNs: node.startNs,
        runId,
        note: write.notes.get(node.spanId) ?? { role: node.role },
        data: null,
      });
    }
  }
  for (const node of waiting) {
    if (node.isNew) spans.push({ traceId: trace.traceId, spanId: node.spanId, parentSpanId: node.parentSpanId, startNs: node.startNs, runId: null, note: null, data: node.span });
  }
  plan.accepted = fresh.filter((node) => node.isNew).length;
  if (spans.length === 0 && runWrites.length === 0) return plan;
  const runIds = [...trace.runIds];
  for (const run of runWrites) if (!runIds.includes(run.runId)) runIds.push(run.runId);
  if (!runIds.includes(traceRunId) && runWrites.length === 0) runIds.length = 0;
  // The whole staged list after this write: the spans left as they were, then the changed ones.
  const changed = new Set(spans.map((span) => span.spanId));
  const staged = [...trace.spans.filter((span) => !changed.has(span.spanId)), ...spans];
  plan.write = { traceId: trace.traceId, version: trace.version, runIds, spans: staged, runs: runWrites };
  return plan;
}

function firstRunId(nodes: Map<string, Node>): string | undefined {
  for (const node of [...nodes.values()].sort((a, b) => compareNs(a.startNs, b.startNs))) {
    const id = node.span ? runIdAttribute(node.span) : undefined;
    if (id) return id;
  }
  return undefined;
}

function booksOf(nodes: Map<string, Node>): Map<string, RunBook> {
  const books = new Map<string, RunBook>();
  for (const node of [...nodes.values()].sort((a, b) => compareNs(a.startNs, b.startNs))) {
    if (!node.runId || !node.note) continue;
    const book = books.get(node.runId) ?? { turns: [], names: new Set<string>() };
    books.set(node.runId, book);
    for (const name of node.note.names ?? []) book.names.add(name);
    if (node.note.role === "model" && node.note.turn !== undefined) book.turns[node.note.turn] = { callIds: node.note.callIds ?? [], used: new Set() };
    if (node.note.role === "tool" && node.note.turn !== undefined && node.note.call !== undefined) book.turns[node.note.turn]?.used.add(node.note.call);
  }
  return books;
}

interface RunContext {
  runSpan?: OtelSpan;
  parentRunId: string | null;
}

/** One run's new records, in order, with the notes its spans leave. */
function runWrite(runId: string, members: Node[], state: TraceRunState | undefined, book: RunBook, context: RunContext): { run: TraceRunWrite; notes: Map<string, SpanNote> } {
  const notes = new Map<string, SpanNote>();
  const records: TraceRunWrite["records"] = [];
  let seq = state ? state.lastSeq + 1 : 0;
  const push = (name: string, kind: string, payload: unknown, at: string) => {
    records.push({ runId, seq, name, kind, payload, createdAt: nsToIso(at) });
    seq += 1;
  };
  const models = members.filter((node) => node.role === "model" && node.span);
  const first = members[0]?.span ?? context.runSpan;
  const run: TraceRunWrite = {
    ...{ runId, create: !state, records, agent: null, parentRunId: context.parentRunId, inputText: null, startedAt: nsToIso(first?.startNs ?? "0") },
    ...{ modelTurns: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, status: "running", error: null, completed: false },
  };
  if (!state) {
    const agent = (context.runSpan && agentOf(context.runSpan)) ?? (first && agentOf(first)) ?? "otel";
    const toolNames = [
      ...new Set([...models.flatMap((node) => offeredToolsOf(node.span!)), ...members.filter((node) => node.role === "tool").map((node) => toolNameOf(node.span!))]),
    ];
    const header = headerPayloadOf({
      agent,
      ...(context.parentRunId ? { parentRunId: context.parentRunId } : {}),
      runSpan: context.runSpan,
      firstModel: models[0]?.span ?? undefined,
      toolNames,
    });
    push(RUN_START, "header", header, context.runSpan?.startNs ?? first?.startNs ?? "0");
    run.agent = agent;
    run.inputText = typeof header.input === "string" ? header.input.slice(0, 500) : null;
  }
  let completion: Node | undefined;
  for (const node of members) {
    const span = node.span!;
    if (node.role === "run") {
      completion = node;
      notes.set(node.spanId, { role: "run" });
    } else if (node.role === "model") {
      const turn = book.turns.length;
      const payload = modelPayloadOf(span);
      const callIds = callsOfModel(payload).map((call) => call.toolCallId);
      book.turns.push({ callIds, used: new Set() });
      push(`turn:${turn}`, "model", payload, span.endNs);
      run.modelTurns += 1;
      run.inputTokens += payload.usage.inputTokens;
      run.outputTokens += payload.usage.outputTokens;
      notes.set(node.spanId, { role: "model", turn, callIds });
    } else if (node.role === "retrieval") {
      // A signal at the turn it served: the documents on the timeline, not a tool call.
      const name = `otel:${span.spanId}:retrieval`;
      push(name, "signal", retrievalPayloadOf(span), span.endNs);
      notes.set(node.spanId, { role: "retrieval", names: [name] });
    } else {
      const own = toolFactsOf(span);
      const { turn, call, modelCallId } = placeCall(book, own.toolCallId);
      // A span with no call id of its own (toolFactsOf fell back to the span id) takes the model's.
      const facts = modelCallId && own.toolCallId === span.spanId ? { ...own, toolCallId: modelCallId } : own;
      const attempt = attemptPayloadOf(span, facts);
      let base = `turn:${turn}:call:${call}`;
      if (book.names.has(`${base}:result`)) base = `otel:${span.spanId}`;
      book.names.add(`${base}:result`);
      push(`${base}:attempt`, "attempt", attempt, span.startNs);
      push(`${base}:result`, "tool_result", toolResultPayloadOf(span, facts), span.endNs);
      run.toolCalls += 1;
      notes.set(node.spanId, { role: "tool", turn, call, names: [`${base}:result`] });
    }
  }
  if (completion?.span) {
    const span = completion.span;
    const failed = span.status.code === STATUS_ERROR;
    if (failed) {
      run.status = "failed";
      run.error = span.status.message || `${span.name} ended with an error`;
    } else {
      push(RUN_COMPLETE, "value", { value: { text: finalTextOf(span), turn: Math.max(0, book.turns.length - 1) } }, span.endNs);
      run.status = "complete";
      run.completed = true;
    }
  } else if (state) {
    // Spans that arrive after their run's own span leave its outcome as it was.
    run.status = state.status;
    run.error = state.error;
  }
  return { run, notes };
}

/**
 * The turn and call index of a tool call: the turn that asked for it; else (a span without the
 * model's call id, as OpenInference's traceTool writes) the latest turn's first call not yet
 * taken, whose id it then adopts; else that turn's next free index.
 */
function placeCall(book: RunBook, toolCallId: string): { turn: number; call: number; modelCallId?: string } {
  for (let turn = book.turns.length - 1; turn >= 0; turn -= 1) {
    const entry = book.turns[turn];
    const call = entry?.callIds.indexOf(toolCallId) ?? -1;
    if (entry && call >= 0 && !entry.used.has(call)) {
      entry.used.add(call);
      return { turn, call };
    }
  }
  const turn = Math.max(0, book.turns.length - 1);
  const entry = book.turns[turn] ?? { callIds: [], used: new Set<number>() };
  book.turns[turn] = entry;
  const open = entry.callIds.findIndex((_id, index) => !entry.used.has(index));
  if (open >= 0) {
    entry.used.add(open);
    return { turn, call: open, modelCallId: entry.callIds[open] };
  }
  let call = entry.callIds.length;
  while (entry.used.has(call)) call += 1;
  entry.used.add(call);
  return { turn, call };
}
