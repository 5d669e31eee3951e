/**
 * MemStore: the in-memory reference Journal (tests, examples). Same semantics as PostgresStore:
 * dense seq, first writer of a name wins, a summary per run, notifications after each change.
 * A process exit loses everything in it.
 */
import { JournalBase, type JournalOptions } from "./base";
import { DEFAULT_PAGE_SIZE, decodeCursor, encodeCostCursor, encodeCursor, pageSize } from "./cursor";
import { MemLeases } from "./mem-leases";
import { RunExistsError, RunNotFoundError, TraceConflictError } from "./errors";
import type {
  DeleteResult,
  ForkCopy,
  Forker,
  ImportBatch,
  ImportedRun,
  Leaser,
  Lister,
  PriceRunsOptions,
  Pricer,
  RunPricing,
  StagedRecord,
  StagedTrace,
  TraceRunState,
  TraceStaging,
  TraceWrite,
  UnfinishedQuery,
  UnfinishedRun,
} from "./ports";
import { RUN_START } from "./names";
import { forkRunId, renamedPayload, startedSubAgents } from "./fork-copy";
import { costOrdered, priceMemRuns, type PricedRun } from "./mem-costs";
import { summaryDelta } from "./summary";
import type { AppendResult, HistoryOptions, JournalNotification, JournalRecord, NewRecord, RunPage, RunQuery, RunStatusPatch, RunSummary } from "./types";

interface MemRun extends PricedRun {
  byName: Map<string, JournalRecord>;
}

export class MemStore extends JournalBase implements Lister, Leaser, TraceStaging, Forker, Pricer {
  private readonly data = new Map<string, MemRun>();
  private readonly traces = new Map<string, StagedTrace>();
  private readonly leases = new MemLeases();
  private readonly listeners = new Set<(note: JournalNotification) => void>();
  private clock = 0;

  constructor(options: JournalOptions = {}) {
    super(options);
  }

  /** Strictly increasing timestamps, so that keyset order is stable within one millisecond. */
  private now(): string {
    this.clock = Math.max(this.clock + 1, Date.now());
    return new Date(this.clock).toISOString();
  }

  protected async write(record: NewRecord, payloadText: string): Promise<AppendResult> {
    const existing = this.data.get(record.runId)?.byName.get(record.name);
    if (existing) return { record: structuredClone(existing), created: false };
    const now = this.now();
    let run = this.data.get(record.runId);
    if (!run) {
      run = { summary: { ...emptySummary(record.runId, now), origin: summaryDelta(record).origin }, records: [], byName: new Map(), costTable: null };
      this.data.set(record.runId, run);
    }
    const stored: JournalRecord = {
      runId: record.runId,
      seq: run.records.length,
      name: record.name,
      kind: record.kind,
      payload: JSON.parse(payloadText),
      createdAt: now,
    };
    run.records.push(stored);
    run.byName.set(stored.name, stored);
    const delta = summaryDelta(record);
    const summary = run.summary;
    summary.agent ??= delta.agent;
    summary.parentRunId ??= delta.parentRunId;
    summary.inputText ??= delta.inputText;
    summary.recordCount += 1;
    summary.lastSeq = stored.seq;
    summary.modelTurns += delta.modelTurns;
    summary.toolCalls += delta.toolCalls;
    summary.inputTokens += delta.inputTokens;
    summary.outputTokens += delta.outputTokens;
    summary.costPending ||= delta.modelTurns > 0;
    summary.status = delta.status;
    summary.pause = null;
    summary.error = null;
    summary.updatedAt = now;
    if (delta.completed) summary.completedAt = now;
    this.notify({ runId: record.runId, seq: stored.seq, kind: record.kind, status: summary.status });
    return { record: structuredClone(stored), created: true };
  }

  protected async read(runId: string, options: HistoryOptions): Promise<JournalRecord[]> {
    const all = this.data.get(runId)?.records ?? [];
    // Seqs are dense from 0: a record's seq is its index.
    const window = all.slice(options.from ?? 0, options.before ?? all.length);
    const kinds = options.kinds && new Set(options.kinds);
    const kept = kinds ? window.filter((record) => kinds.has(record.kind)) : window;
    return structuredClone(kept.slice(0, options.limit ?? kept.length));
  }

  protected async readOne(runId: string, name: string): Promise<JournalRecord | undefined> {
    const record = this.data.get(runId)?.byName.get(name);
    return record && structuredClone(record);
  }

  async run(runId: string): Promise<RunSummary | undefined> {
    const run = this.data.get(runId);
    return run && structuredClone(run.summary);
  }

  async runs(query: RunQuery = {}): Promise<RunPage> {
    const limit = pageSize(query.limit ?? DEFAULT_PAGE_SIZE);
    const search = query.search?.toLowerCase();
    const filtered = [...this.data.values()]
      .map((run) => run.summary)
      .filter(
        (run) =>
          (query.status === undefined || run.status === query.status) &&
          (query.agent === undefined || run.agent === query.agent) &&
          (query.parentRunId === undefined || run.parentRunId === query.parentRunId) &&
          (query.forkOf === undefined || run.forkedFrom?.runId === query.forkOf) &&
          (search === undefined || run.runId.toLowerCase().includes(search) || (run.inputText ?? "").toLowerCase().includes(search)),
      );
    const byCost = query.sort === "cost";
    const order = query.order ?? "desc";
    const matching = byCost ? costOrdered(filtered, order, query.cursor) : newestFirst(filtered, query.cursor);
    const page = matching.slice(0, limit);
    const last = page.at(-1);
    const more = matching.length > limit && last;
    return {
      runs: structuredClone(page),
      nextCursor: more ? (byCost ? encodeCostCursor(last, order) : encodeCursor(last)) : null,
    };
  }

  async priceRuns(pricing: RunPricing, options: PriceRunsOptions = {}): Promise<{ priced: number; more: boolean }> {
    return priceMemRuns(this.data.values(), pricing, options);
  }

  protected async writeStatus(runId: string, patch: RunStatusPatch): Promise<void> {
    const run = this.data.get(runId);
    if (!run) return;
    run.summary.status = patch.status;
    run.summary.pause = patch.pause ?? null;
    run.summary.error = patch.error ?? null;
    run.summary.updatedAt = this.now();
    this.notify({ runId, seq: -1, kind: "status", status: patch.status });
  }

  async unfinishedRuns(query: UnfinishedQuery = {}): Promise<UnfinishedRun[]> {
    const after = query.after;
    const found = [...this.data.values()]
      .map((run) => run.summary)
      .filter((run) => run.status !== "complete" && run.completedAt === null && (after === undefined || run.runId > after))
      .sort((a, b) => cmp(a.runId, b.runId))
      .slice(0, query.limit ?? Number.POSITIVE_INFINITY);
    return found.map((run) => ({
      runId: run.runId,
      parentRunId: run.parentRunId,
      agent: run.agent,
      origin: run.origin,
      status: run.status,
      pause: structuredClone(run.pause),
      error: run.error,
      updatedAt: run.updatedAt,
      leaseHolder: this.leases.holderOf(run.runId),
      abandoned: this.leases.abandoned(run.runId),
    }));
  }

  acquireLease(runId: string, holder: string, ttlMs: number): Promise<boolean> {
    return this.leases.acquireLease(runId, holder, ttlMs);
  }

  renewLease(runId: string, holder: string, ttlMs: number): Promise<boolean> {
    return this.leases.renewLease(runId, holder, ttlMs);
  }

  releaseLease(runId: string, holder: string): Promise<void> {
    return this.leases.releaseLease(runId, holder);
  }

  async beginImport(): Promise<ImportBatch> {
    const staged: StagedRecord[] = [];
    return {
      stage: async (records) => void staged.push(...records),
      discard: async () => void staged.splice(0),
      // Synchronous from the existence check to the last insert: no other call interleaves.
      commit: async (imported) => this.commitImport(staged.splice(0), imported),
    };
  }

  private commitImport(staged: StagedRecord[], imported: readonly ImportedRun[]): void {
    for (const run of imported) if (this.data.has(run.runId)) throw new RunExistsError(run.runId);
    const now = this.now();
    for (const run of imported) {
      const { runId, agent, parentRunId, inputText, status, modelTurns, toolCalls, inputTokens, outputTokens } = run;
      const summary: RunSummary = {
        ...emptySummary(runId, now),
        ...{ agent, parentRunId, inputText, status, modelTurns, toolCalls, inputTokens, outputTokens, origin: "import" },
        ...{ recordCount: run.records, lastSeq: run.records - 1, completedAt: run.completed ? now : null },
      };
      this.data.set(run.runId, { summary, records: [], byName: new Map(), costTable: null });
    }
    for (const record of staged) {
      const run = this.data.get(record.runId);
      const stored: JournalRecord = { ...structuredClone(record), payload: structuredClone(record.payload ?? null), createdAt: now };
      run?.records.push(stored);
      run?.byName.set(stored.name, stored);
    }
    this.forgetRuns(imported.map((run) => run.runId));
    for (const run of imported) this.notify({ runId: run.runId, seq: run.records - 1, kind: "import", status: run.status });
  }

  async loadTraces(traceIds: readonly string[], runIds: readonly string[]): Promise<{ traces: StagedTrace[]; runs: TraceRunState[] }> {
    const traces = traceIds.map((traceId) => structuredClone(this.traces.get(traceId) ?? { traceId, version: 0, runIds: [], spans: [] }));
    const ids = new Set([...runIds, ...traces.flatMap((trace) => trace.runIds)]);
    const runs: TraceRunState[] = [];
    for (const id of ids) {
      const summary = this.data.get(id)?.summary;
      if (summary) runs.push({ runId: id, origin: summary.origin, lastSeq: summary.lastSeq, status: summary.status, error: summary.error });
    }
    return { traces, runs };
  }

  // Synchronous from the checks to the last change: no other call interleaves, so it is all or nothing.
  async writeTraces(writes: readonly TraceWrite[]): Promise<void> {
    for (const write of writes) {
      const known = this.traces.get(write.traceId)?.version ?? 0;
      const clash = write.runs.some((run) => (run.create ? this.data.has(run.runId) : this.data.get(run.runId)?.summary.origin !== "otel"));
      if (known !== write.version || clash) throw new TraceConflictError([write.traceId]);
    }
    for (const write of writes) {
      const version = (this.traces.get(write.traceId)?.version ?? 0) + 1;
      this.traces.set(write.traceId, { traceId: write.traceId, version, runIds: [...write.runIds], spans: structuredClone(write.spans) });
      for (const run of write.runs) this.applyTraceRun(run);
    }
  }

  private applyTraceRun(write: TraceWrite["runs"][number]): void {
    const now = this.now();
    let run = this.data.get(write.runId);
    if (!run) {
      const summary = { ...emptySummary(write.runId, write.startedAt), agent: write.agent, parentRunId: write.parentRunId, inputText: write.inputText, origin: "otel" as const };
      run = { summary, records: [], byName: new Map(), costTable: null };
      this.data.set(write.runId, run);
    }
    for (const record of write.records) {
      const stored: JournalRecord = {
        runId: record.runId,
        seq: record.seq,
        name: record.name,
        kind: record.kind,
        payload: structuredClone(record.payload ?? null),
        createdAt: record.createdAt,
      };
      run.records.push(stored);
      run.byName.set(stored.name, stored);
    }
    const summary = run.summary;
    summary.recordCount = run.records.length;
    summary.lastSeq = run.records.length - 1;
    summary.modelTurns += write.modelTurns;
    summary.toolCalls += write.toolCalls;
    summary.inputTokens += write.inputTokens;
    summary.outputTokens += write.outputTokens;
    summary.costPending ||= write.modelTurns > 0;
    summary.status = write.status;
    summary.error = write.error;
    summary.updatedAt = now;
    if (write.completed) summary.completedAt ??= now;
    this.forgetRuns([write.runId]);
    this.notify({ runId: write.runId, seq: summary.lastSeq, kind: "otel", status: summary.status });
  }

  /** Synchronous from the existence check to the last record: no other call interleaves (all or nothing). */
  async copyForFork(copy: ForkCopy): Promise<{ created: boolean }> {
    const texts = this.forkTexts(copy);
    if (this.data.has(copy.newRunId)) return { created: false };
    const source = this.data.get(copy.sourceRunId);
    if (!source) throw new RunNotFoundError(copy.sourceRunId);
    const now = this.now();
    const header: JournalRecord = { runId: copy.newRunId, seq: 0, name: RUN_START, kind: "header", payload: JSON.parse(texts.header), createdAt: now };
    const rename = (runId: string) => forkRunId(copy.sourceRunId, copy.newRunId, runId);
    const copied = source.records.slice(1, copy.at).map((record) => this.copiedRecord(record, rename));
    const edited = copy.edited && texts.edited !== undefined ? [{ runId: copy.newRunId, seq: copy.at, ...copy.edited, payload: JSON.parse(texts.edited), createdAt: now }] : [];
    const records = [header, ...copied, ...edited];
    const summary: RunSummary = { ...emptySummary(copy.newRunId, now), origin: copy.origin ?? "fork", forkedFrom: { runId: copy.sourceRunId, at: copy.at } };
    if (copy.status === "complete") Object.assign(summary, { status: "complete", completedAt: now });
    for (const record of records) {
      const delta = summaryDelta(record);
      summary.agent ??= delta.agent;
      summary.parentRunId ??= delta.parentRunId;
      summary.inputText ??= delta.inputText;
      summary.modelTurns += delta.modelTurns;
      summary.toolCalls += delta.toolCalls;
      summary.inputTokens += delta.inputTokens;
      summary.outputTokens += delta.outputTokens;
    }
    summary.recordCount = records.length;
    summary.lastSeq = records.length - 1;
    this.data.set(copy.newRunId, { summary, records, byName: new Map(records.map((record) => [record.name, record])), costTable: null });
    const children = this.copySubAgents(startedSubAgents(source.records.slice(1, copy.at)), rename);
    this.forgetRuns([copy.newRunId, ...children]);
    this.notify({ runId: copy.newRunId, seq: summary.lastSeq, kind: "fork", status: summary.status });
    return { created: true };
  }

  private copiedRecord(record: JournalRecord, rename: (runId: string) => string): JournalRecord {
    const cloned = structuredClone(record);
    return { ...cloned, runId: rename(record.runId), payload: renamedPayload(cloned, rename) };
  }

  /** Copies the sub-agent runs named (renamed) and theirs, whole, as fork.ts's rules say; returns their new ids. */
  private copySubAgents(named: string[], rename: (runId: string) => string): string[] {
    const copiedIds: string[] = [];
    for (let index = 0; index < named.length; index += 1) {
      const sourceId = named[index]!;
      // Only the source's own sub-agent runs are copied (their ids carry its prefix).
      const child = rename(sourceId) === sourceId ? undefined : this.data.get(sourceId);
      if (!child) continue;
      const records = child.records.map((record) => this.copiedRecord(record, rename));
      const { summary } = child;
      const copiedSummary: RunSummary = {
        ...structuredClone(summary),
        runId: rename(summary.runId),
        parentRunId: summary.parentRunId === null ? null : rename(summary.parentRunId),
        origin: "fork",
        forkedFrom: null,
        costUsd: null,
        costPending: true,
      };
      this.data.set(copiedSummary.runId, { summary: copiedSummary, records, byName: new Map(records.map((record) => [record.name, record])), costTable: null });
      copiedIds.push(copiedSummary.runId);
      named.push(...startedSubAgents(child.records));
    }
    return copiedIds;
  }

  async deleteRun(runId: string): Promise<DeleteResult> {
    if (!this.data.has(runId)) throw new RunNotFoundError(runId);
    const tree = [runId];
    for (let index = 0; index < tree.length; index += 1) {
      for (const run of this.data.values()) if (run.summary.parentRunId === tree[index] && !tree.includes(run.summary.runId)) tree.push(run.summary.runId);
    }
    let records = 0;
    let leases = 0;
    for (const id of tree) {
      records += this.data.get(id)?.records.length ?? 0;
      if (this.leases.drop(id)) leases += 1;
      this.data.delete(id);
    }
    this.forgetRuns(tree);
    return { runs: tree.sort(cmp), records, leases };
  }

  async subscribe(listener: (note: JournalNotification) => void): Promise<() => Promise<void>> {
    this.listeners.add(listener);
    return async () => {
      this.listeners.delete(listener);
    };
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }

  private notify(note: JournalNotification): void {
    for (const listener of this.listeners) listener(note);
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function newestFirst(runs: RunSummary[], cursor: string | undefined): RunSummary[] {
  const after = cursor ? decodeCursor(cursor) : undefined;
  return runs
    .filter((run) => after === undefined || run.startedAt < after.startedAt || (run.startedAt === after.startedAt && run.runId < after.runId))
    .sort((a, b) => (a.startedAt === b.startedAt ? cmp(b.runId, a.runId) : cmp(b.startedAt, a.startedAt)));
}

function emptySummary(runId: string, now: string): RunSummary {
  return {
    runId,
    agent: null,
    parentRunId: null,
    origin: "agent",
    forkedFrom: null,
    status: "running",
    pause: null,
    error: null,
    inputText: null,
    recordCount: 0,
    lastSeq: -1,
    modelTurns: 0,
    toolCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: null,
    costPending: true,
    startedAt: now,
    updatedAt: now,
    completedAt: null,
  };
}
