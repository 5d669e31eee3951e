/**
 * What every Journal implementation shares: payload limits, `do` memoization over `append`, a
 * bounded per-process cache of record names so that `do` costs one statement, not a lookup plus
 * a write, and each run's last seq as this process last saw it, so that a store can insert at the
 * next seq without reading it. Both only save work: the store's append stays the authority (first
 * writer of a name wins; a seq another writer took first is read again).
 *
 * Appends to one run from this process go one at a time, in call order: they would queue on the
 * run anyway, and this way each knows the seq its predecessor took.
 */
import { BadInputError, PayloadTooLargeError } from "./errors";
import { forkRunId, renamedPayload } from "./fork-copy";
import type { FaultPlan } from "./faults";
import { RUN_START } from "./names";
import type { DeleteResult, DoOptions, ForkCopy, ImportBatch, Journal } from "./ports";
import type { AppendResult, HistoryOptions, JournalNotification, JournalRecord, NewRecord, RunPage, RunQuery, RunStatusPatch, RunSummary } from "./types";

export const DEFAULT_PAYLOAD_LIMIT_BYTES = 1024 * 1024;
/** The longest id the journal and the sessions accept (run ids, session, app and user ids, authors). */
export const MAX_ID_LENGTH = 256;
/** The longest record name. */
export const MAX_NAME_LENGTH = 512;
/** Records cached across all runs; the least recently used runs are forgotten beyond it. */
const CACHED_RECORDS = 200_000;
/** Runs whose last seq is remembered; all are forgotten beyond it (they are only hints). */
const REMEMBERED_RUNS = 50_000;

export interface JournalOptions {
  /** Largest payload accepted, in bytes of its JSON text. Default 1 MiB. */
  payloadLimitBytes?: number;
  /** Fault injection for crash tests (see faults.ts). */
  faults?: FaultPlan;
}

/** Run ids and names are text keys: non-empty, bounded, and free of NUL (PostgreSQL text cannot hold it). */
function validateKeys(runId: unknown, name: unknown): void {
  if (typeof runId !== "string" || runId.length === 0 || runId.length > MAX_ID_LENGTH || runId.includes("\u0000")) {
    throw new BadInputError(`a run id must be 1 to ${MAX_ID_LENGTH} characters without NUL`);
  }
  if (typeof name !== "string" || name.length === 0 || name.length > MAX_NAME_LENGTH || name.includes("\u0000")) {
    throw new BadInputError(`a record name must be 1 to ${MAX_NAME_LENGTH} characters without NUL`);
  }
}

/** The JSON text of a payload (undefined becomes null), refusing one over the limit. */
export function encodePayload(record: NewRecord, limitBytes: number): string {
  const text = JSON.stringify(record.payload ?? null) ?? "null";
  // A UTF-16 unit is at most 3 bytes of UTF-8: a short text needs no count.
  if (text.length * 3 <= limitBytes) return text;
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > limitBytes) throw new PayloadTooLargeError(record.runId, record.name, bytes, limitBytes);
  return text;
}

function isThenable<T>(value: Promise<T> | T): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/**
 * A cached name whose record this process wrote: the payload is not kept (the caller has it, and
 * holding every written payload made the garbage collector copy and mark it). A later lookup of
 * the name reads the record once.
 */
const WRITTEN = Symbol("written");
type CachedName = JournalRecord | typeof WRITTEN;

export abstract class JournalBase implements Journal {
  protected readonly payloadLimitBytes: number;
  /** runId → name → record (or WRITTEN), most recently used last. */
  private readonly known = new Map<string, Map<string, CachedName>>();
  private cachedRecords = 0;
  private readonly pending = new Map<string, Promise<unknown>>();
  /** runId → the highest seq this process has written or read in it. */
  private readonly lastSeqs = new Map<string, number>();
  /** runId → this process's latest append to it (the next one waits for it). */
  private readonly tails = new Map<string, Promise<unknown>>();
  /** Fault injection (tests); may be replaced between runs. */
  faults: FaultPlan | undefined;
  private appends = 0;
  /** Set when a fault hook threw: the simulated process is dead until restart(). */
  private crashed: { error: unknown } | undefined;

  constructor(options: JournalOptions = {}) {
    this.payloadLimitBytes = options.payloadLimitBytes ?? DEFAULT_PAYLOAD_LIMIT_BYTES;
    this.faults = options.faults;
  }

  /** Appends one record. `nextSeq`, when given, is the seq after the run's last one as this process
   * last saw it: a hint the store may use, and must survive being stale. */
  protected abstract write(record: NewRecord, payloadText: string, nextSeq?: number): Promise<AppendResult>;
  protected abstract read(runId: string, options: HistoryOptions): Promise<JournalRecord[]>;
  protected abstract readOne(runId: string, name: string): Promise<JournalRecord | undefined>;
  abstract run(runId: string): Promise<RunSummary | undefined>;
  abstract runs(query?: RunQuery): Promise<RunPage>;
  protected abstract writeStatus(runId: string, patch: RunStatusPatch): Promise<void>;
  abstract beginImport(): Promise<ImportBatch>;
  abstract deleteRun(runId: string): Promise<DeleteResult>;
  abstract subscribe(listener: (note: JournalNotification) => void): Promise<() => Promise<void>>;
  abstract close(): Promise<void>;

  async append<P>(record: NewRecord<P>): Promise<AppendResult<P>> {
    this.alive();
    validateKeys(record.runId, record.name);
    const text = encodePayload(record, this.payloadLimitBytes);
    const count = (this.appends += 1);
    if (this.faults?.beforeWrite) this.inject(() => this.faults?.beforeWrite?.(record, count));
    const result = await this.inOrder(record.runId, () => {
      const last = this.lastSeqs.get(record.runId);
      return this.write(record, text, last === undefined ? undefined : last + 1);
    });
    this.remember(result.record, result.created);
    if (this.faults?.afterWrite) this.inject(() => this.faults?.afterWrite?.(result, count));
    return result as AppendResult<P>;
  }

  async setStatus(runId: string, patch: RunStatusPatch): Promise<void> {
    this.alive();
    await this.writeStatus(runId, patch);
  }

  /**
   * Stands for a new process over the same data (crash tests): clears a simulated crash, the
   * append count and every cached name. The data itself is untouched.
   */
  restart(): void {
    this.crashed = undefined;
    this.appends = 0;
    this.pending.clear();
    this.tails.clear();
    this.forget();
  }

  /** Runs `work` after this process's earlier appends to the run have settled. */
  private async inOrder(runId: string, work: () => Promise<AppendResult>): Promise<AppendResult> {
    const previous = this.tails.get(runId);
    const current = previous ? previous.then(work, work) : work();
    this.tails.set(runId, current);
    try {
      const result = await current;
      this.noteSeq(runId, result.record.seq);
      return result;
    } finally {
      if (this.tails.get(runId) === current) this.tails.delete(runId);
    }
  }

  private noteSeq(runId: string, seq: number): void {
    const known = this.lastSeqs.get(runId);
    if (known !== undefined && known >= seq) return;
    if (known === undefined && this.lastSeqs.size >= REMEMBERED_RUNS) this.lastSeqs.clear();
    this.lastSeqs.set(runId, seq);
  }

  private alive(): void {
    if (this.crashed !== undefined) throw this.crashed.error;
  }

  private inject(hook: () => void): void {
    try {
      hook();
    } catch (error) {
      this.crashed = { error };
      throw error;
    }
  }

  async history(runId: string, options: HistoryOptions = {}): Promise<JournalRecord[]> {
    this.alive();
    const records = await this.read(runId, options);
    // A read of some kinds, or of a window, says nothing of the run's last seq or of its other names.
    if (options.kinds !== undefined || options.before !== undefined) return records;
    const last = records.at(-1);
    if (last) this.noteSeq(runId, last.seq);
    if (options.from === undefined && options.limit === undefined) {
      // A run read whole and found empty: its next seq is 0 (a hint, as every last seq is), so
      // the first `do` of a new run costs its read and one append, not a failed try as well.
      if (!last) this.noteSeq(runId, -1);
      this.forget(runId);
      if (records.length <= CACHED_RECORDS / 4) {
        const names = new Map<string, JournalRecord>();
        for (const record of records) names.set(record.name, record);
        this.cache(runId, names);
      }
    }
    return records;
  }

  async record(runId: string, name: string): Promise<JournalRecord | undefined> {
    this.alive();
    const cached = this.known.get(runId)?.get(name);
    if (cached !== undefined && cached !== WRITTEN) return cached;
    const record = await this.readOne(runId, name);
    if (record) this.remember(record);
    return record;
  }

  async do<T>(runId: string, name: string, fn: () => Promise<T> | T, options: DoOptions = {}): Promise<T> {
    const key = `${runId}\u0000${name}`;
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight as Promise<T>;
    const work = this.memoize(runId, name, fn, options);
    this.pending.set(key, work);
    try {
      return await work;
    } finally {
      this.pending.delete(key);
    }
  }

  private async memoize<T>(runId: string, name: string, fn: () => Promise<T> | T, options: DoOptions): Promise<T> {
    // The hot path (a run this process has seen, a step that returns a plain value) awaits nothing
    // but the append: each await is a turn of the microtask queue on every step of every run.
    const names = this.cachedNames(runId) ?? (await this.loadNames(runId));
    // A run too long to cache is looked up by name: one indexed read instead of its whole history.
    const cached = names ? names.get(name) : await this.readOne(runId, name);
    const recorded = cached === WRITTEN ? await this.record(runId, name) : cached;
    if (recorded) return recorded.payload as T;
    const produced = fn();
    const value = isThenable(produced) ? await produced : produced;
    const { record } = await this.append({ runId, name, kind: options.kind ?? "value", payload: value });
    return record.payload as T;
  }

  /** The cached names of a run (now the most recently used), or undefined when none are cached. */
  private cachedNames(runId: string): Map<string, CachedName> | undefined {
    const cached = this.known.get(runId);
    if (cached) {
      this.known.delete(runId);
      this.known.set(runId, cached);
    }
    return cached;
  }

  /** Loads a run's history once to cache its names; undefined for a run too long to cache. */
  private async loadNames(runId: string): Promise<Map<string, CachedName> | undefined> {
    await this.history(runId);
    return this.known.get(runId);
  }

  /**
   * Caches a record of a cached run: whole when it was read, as WRITTEN when this process wrote it.
   * A record this process wrote at seq 0 created the run, so the run's names are known from it
   * without a read (a replay's first `do` after its claim).
   */
  private remember(record: JournalRecord, written = false): void {
    const names = this.known.get(record.runId);
    if (!names) {
      if (written && record.seq === 0) this.cache(record.runId, new Map([[record.name, WRITTEN]]));
      return;
    }
    const cached = names.get(record.name);
    if (cached === undefined) this.cachedRecords += 1;
    else if (cached !== WRITTEN) return;
    names.set(record.name, written ? WRITTEN : record);
  }

  private cache(runId: string, names: Map<string, CachedName>): void {
    this.known.set(runId, names);
    this.cachedRecords += names.size;
    for (const oldest of this.known.keys()) {
      if (this.cachedRecords <= CACHED_RECORDS || oldest === runId) break;
      this.forget(oldest);
    }
  }

  /** A fork's header and edited payloads as JSON text, checked as an append checks them (keys, size). */
  protected forkTexts(copy: ForkCopy): { header: string; edited?: string } {
    this.alive();
    validateKeys(copy.newRunId, RUN_START);
    const header = encodePayload({ runId: copy.newRunId, name: RUN_START, kind: "header", payload: copy.header }, this.payloadLimitBytes);
    if (!copy.edited) return { header };
    validateKeys(copy.newRunId, copy.edited.name);
    // The edited record names the fork's copies of its sub-agent runs, as the copied records do (fork-copy.ts).
    const payload = renamedPayload(copy.edited, (runId) => forkRunId(copy.sourceRunId, copy.newRunId, runId));
    return { header, edited: encodePayload({ runId: copy.newRunId, ...copy.edited, payload }, this.payloadLimitBytes) };
  }

  /** Forget everything known of these runs (deleted, or replaced by an import): names and last seqs. */
  protected forgetRuns(runIds: readonly string[]): void {
    for (const runId of runIds) {
      this.forget(runId);
      this.lastSeqs.delete(runId);
    }
  }

  /** Forget cached names, for example after another process may have written. */
  protected forget(runId?: string): void {
    if (runId === undefined) {
      this.known.clear();
      this.lastSeqs.clear();
      this.cachedRecords = 0;
      return;
    }
    const names = this.known.get(runId);
    if (names) {
      this.cachedRecords -= names.size;
      this.known.delete(runId);
    }
  }
}
