/**
 * The redacted search texts of runs, kept in memory by a server process, so that typing a query
 * into the run page reads each record from the database once: a later search reads only the
 * records appended since (records never change once written, and seqs are dense). The texts are
 * redacted when they are made (searchText), so the cache never holds a secret in searchable form.
 * The least recently used runs are dropped beyond `maxChars` characters in all. Page-only: not
 * exported from the package entry (the server imports it by path).
 */
import type { Journal } from "../journal/ports";
import type { RunSummary } from "../journal/types";
import type { RedactOptions } from "./redact";
import { searchText, type SearchSource } from "./search";

interface SearchCacheOptions {
  /** Characters of text kept across all runs. */
  maxChars?: number;
  /** Records read per query while catching up. */
  pageSize?: number;
  redaction?: RedactOptions;
}

interface Cached {
  texts: string[];
  names: string[];
  kinds: string[];
  chars: number;
  /** The run's start: a run deleted and written again under the same id starts later, and is read afresh. */
  startedAt: string;
  pending?: Promise<void>;
}

export class SearchCache {
  private readonly runs = new Map<string, Cached>();
  private readonly maxChars: number;
  private readonly pageSize: number;

  constructor(
    private readonly store: Pick<Journal, "history" | "run">,
    private readonly options: SearchCacheOptions = {},
  ) {
    this.maxChars = options.maxChars ?? 64_000_000;
    this.pageSize = options.pageSize ?? 2_000;
  }

  /** The run's search texts through at least `run.lastSeq`, or undefined for an unknown run. Shared: callers must not change it. */
  async source(runId: string, run?: Pick<RunSummary, "lastSeq" | "startedAt">): Promise<SearchSource | undefined> {
    const summary = run ?? (await this.store.run(runId));
    if (!summary) return undefined;
    let cached = this.runs.get(runId);
    this.runs.delete(runId);
    if (cached && cached.startedAt !== summary.startedAt) cached = undefined;
    cached ??= { texts: [], names: [], kinds: [], chars: 0, startedAt: summary.startedAt };
    // Most recently used last.
    this.runs.set(runId, cached);
    for (let round = 0; round < 2 && cached.texts.length <= summary.lastSeq; round += 1) {
      const entry = cached;
      entry.pending ??= this.catchUp(runId, entry, summary.lastSeq).finally(() => {
        entry.pending = undefined;
      });
      await entry.pending;
    }
    this.evict(runId);
    const { texts, names, kinds } = cached;
    const length = Math.min(texts.length, summary.lastSeq + 1);
    return { length, text: (seq) => texts[seq]!, name: (seq) => names[seq]!, kind: (seq) => kinds[seq]! };
  }

  private async catchUp(runId: string, cached: Cached, lastSeq: number): Promise<void> {
    while (cached.texts.length <= lastSeq) {
      const records = await this.store.history(runId, { from: cached.texts.length, limit: this.pageSize });
      for (const record of records) {
        // Dense seqs: anything else means the cache and the database disagree; start the run over.
        if (record.seq !== cached.texts.length) {
          Object.assign(cached, { texts: [], names: [], kinds: [], chars: 0 } satisfies Partial<Cached>);
          return;
        }
        const text = searchText(record, this.options.redaction);
        cached.texts.push(text);
        cached.names.push(record.name);
        cached.kinds.push(record.kind);
        cached.chars += text.length;
      }
      if (records.length < this.pageSize) return;
    }
  }

  /** Forgets a run (deleted, or its texts no longer wanted). */
  forget(runId: string): void {
    this.runs.delete(runId);
  }

  private evict(keep: string): void {
    let total = 0;
    for (const cached of this.runs.values()) total += cached.chars;
    for (const [runId, cached] of this.runs) {
      if (total <= this.maxChars) return;
      if (runId === keep || cached.pending) continue;
      total -= cached.chars;
      this.runs.delete(runId);
    }
  }
}
