/**
 * SuiteStore: where pins and batches live. Two implementations keep one contract: MemSuiteStore
 * (beside MemStore, for tests and examples) and SqlSuiteStore (sql.ts, PGlite or a server).
 * Invariants both keep:
 * - a pin is (suite, runId); pinning again changes nothing and says so (`created: false`);
 * - a batch's result rows are created with the batch, one per pinned run, `pending`, in pin order;
 *   a result leaves `pending` once and is never rewritten;
 * - batches of a suite list newest first; "the previous batch" is the one started just before.
 */
import { randomBytes } from "node:crypto";
import type { Batch, BatchResult, BatchStatus, Pin, ResultUpdate, SuiteSummary } from "./types";
import { countResults } from "./types";

export interface NewPin {
  suite: string;
  runId: string;
  pinnedBy: string;
  note?: string | null;
  /** ISO 8601; now when absent (an imported pin keeps its own). */
  pinnedAt?: string;
}

/** One result of setResults. */
export interface ResultEntry {
  runId: string;
  update: ResultUpdate;
}

export interface NewBatch {
  batchId: string;
  suite: string;
  model: string;
  stripMemory: boolean;
  scorer: string;
}

export interface SuiteStore {
  pin(pin: NewPin): Promise<{ created: boolean; pin: Pin }>;
  /** Pins many runs into one suite at once, skipping runs already pinned there; returns how many were new. */
  pinMany(suite: string, runIds: readonly string[], pinnedBy: string): Promise<number>;
  /** False when the run was not pinned in that suite. */
  unpin(suite: string, runId: string): Promise<boolean>;
  /** A suite's pins, oldest first. */
  pins(suite: string): Promise<Pin[]>;
  /** The pins of one run, in every suite (the run page's "Pinned in"). */
  pinsOf(runId: string): Promise<Pin[]>;
  /** Every suite with a pin or a batch, by name. */
  suites(): Promise<SuiteSummary[]>;
  createBatch(batch: NewBatch, runIds: readonly string[]): Promise<Batch>;
  setResult(batchId: string, runId: string, update: ResultUpdate): Promise<void>;
  /** setResult for many results of one batch, all or none of them (one statement on a SQL store). */
  setResults(batchId: string, results: readonly ResultEntry[]): Promise<void>;
  finishBatch(batchId: string, status: Exclude<BatchStatus, "running">, error?: string | null): Promise<void>;
  batch(batchId: string): Promise<Batch | undefined>;
  results(batchId: string): Promise<BatchResult[]>;
  /** A suite's batches, newest first. */
  batches(suite: string, limit?: number): Promise<Batch[]>;
  /** The batch of the same suite started just before this one. */
  previousBatch(batchId: string): Promise<Batch | undefined>;
}

/** A new batch id: sortable by time, unique without coordination. */
export function newBatchId(now = Date.now()): string {
  return `b${now.toString(36)}${randomBytes(3).toString("hex")}`;
}

const byStart = (a: Batch, b: Batch) => (a.startedAt === b.startedAt ? b.batchId.localeCompare(a.batchId) : b.startedAt.localeCompare(a.startedAt));

export class MemSuiteStore implements SuiteStore {
  private readonly pinned = new Map<string, Pin>();
  private readonly batchRows = new Map<string, Batch>();
  private readonly resultRows = new Map<string, BatchResult[]>();

  async pin(pin: NewPin): Promise<{ created: boolean; pin: Pin }> {
    const key = JSON.stringify([pin.suite, pin.runId]);
    const existing = this.pinned.get(key);
    if (existing) return { created: false, pin: { ...existing } };
    const row: Pin = { suite: pin.suite, runId: pin.runId, pinnedBy: pin.pinnedBy, pinnedAt: pin.pinnedAt ?? new Date().toISOString(), note: pin.note ?? null };
    this.pinned.set(key, row);
    return { created: true, pin: { ...row } };
  }

  async pinMany(suite: string, runIds: readonly string[], pinnedBy: string): Promise<number> {
    let created = 0;
    for (const runId of runIds) if ((await this.pin({ suite, runId, pinnedBy })).created) created += 1;
    return created;
  }

  async unpin(suite: string, runId: string): Promise<boolean> {
    return this.pinned.delete(JSON.stringify([suite, runId]));
  }

  async pins(suite: string): Promise<Pin[]> {
    return [...this.pinned.values()].filter((pin) => pin.suite === suite).map((pin) => ({ ...pin }));
  }

  async pinsOf(runId: string): Promise<Pin[]> {
    return [...this.pinned.values()].filter((pin) => pin.runId === runId).sort((a, b) => a.suite.localeCompare(b.suite));
  }

  async suites(): Promise<SuiteSummary[]> {
    const names = new Set([...[...this.pinned.values()].map((pin) => pin.suite), ...[...this.batchRows.values()].map((batch) => batch.suite)]);
    return [...names].sort().map((suite) => {
      const last = [...this.batchRows.values()].filter((batch) => batch.suite === suite).sort(byStart)[0];
      const pins = [...this.pinned.values()].filter((pin) => pin.suite === suite).length;
      return { suite, pins, lastBatch: last ? { ...last, counts: countResults(this.resultRows.get(last.batchId) ?? []) } : null };
    });
  }

  async createBatch(batch: NewBatch, runIds: readonly string[]): Promise<Batch> {
    // Strictly increasing start times keep "newest first" exact when two batches start in one millisecond.
    const latest = Math.max(0, ...[...this.batchRows.values()].map((row) => Date.parse(row.startedAt)));
    const row: Batch = { ...batch, status: "running", total: runIds.length, error: null, startedAt: new Date(Math.max(Date.now(), latest + 1)).toISOString(), finishedAt: null };
    this.batchRows.set(batch.batchId, row);
    const results = runIds.map((runId, position) => ({
      ...{ batchId: batch.batchId, runId, position, status: "pending" as const },
      ...{ replayRunId: null, divergentAt: null, divergence: null, reason: null, score: null, finishedAt: null },
    }));
    this.resultRows.set(batch.batchId, results);
    return { ...row };
  }

  async setResult(batchId: string, runId: string, update: ResultUpdate): Promise<void> {
    const row = this.resultRows.get(batchId)?.find((result) => result.runId === runId);
    if (row && row.status === "pending") Object.assign(row, update, { finishedAt: new Date().toISOString() });
  }

  async setResults(batchId: string, results: readonly ResultEntry[]): Promise<void> {
    for (const { runId, update } of results) await this.setResult(batchId, runId, update);
  }

  async finishBatch(batchId: string, status: Exclude<BatchStatus, "running">, error: string | null = null): Promise<void> {
    const row = this.batchRows.get(batchId);
    if (row && row.status === "running") Object.assign(row, { status, error, finishedAt: new Date().toISOString() });
  }

  async batch(batchId: string): Promise<Batch | undefined> {
    const row = this.batchRows.get(batchId);
    return row && { ...row };
  }

  async results(batchId: string): Promise<BatchResult[]> {
    return (this.resultRows.get(batchId) ?? []).map((row) => ({ ...row }));
  }

  async batches(suite: string, limit = 50): Promise<Batch[]> {
    return [...this.batchRows.values()]
      .filter((batch) => batch.suite === suite)
      .sort(byStart)
      .slice(0, limit)
      .map((batch) => ({ ...batch }));
  }

  async previousBatch(batchId: string): Promise<Batch | undefined> {
    const current = this.batchRows.get(batchId);
    if (!current) return undefined;
    const all = await this.batches(current.suite, Number.MAX_SAFE_INTEGER);
    return all[all.findIndex((batch) => batch.batchId === batchId) + 1];
  }
}
