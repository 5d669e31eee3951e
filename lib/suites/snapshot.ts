/**
 * PinnedRuns: a batch's pinned runs read in bulk, a chunk at a time just ahead of the replays that
 * need them, and a Journal view per replay that answers the pinned run's reads (its summary, its
 * history, a record by name) from that read. A replay reads its source several times (the input,
 * the memory record, the recorded outputs, the diff): this makes those one share of a chunk's two
 * statements (RunReader) instead of seven statements per replay.
 *
 * Invariants:
 * - only reads of the pinned run itself come from the snapshot; every write, and every read of any
 *   other run (the replay, a sub-agent run), goes to the journal;
 * - one replay sees one reading of its pinned run: the input it replays, the outputs it replays
 *   against and the run it is diffed with come from the same read, taken when the batch reached
 *   that chunk (never earlier than chunk × concurrency replays ahead);
 * - a run is forgotten once its replay is judged (`release`), so memory follows the chunk size and
 *   the concurrency, not the suite's size.
 */
import { isRunReader, type Journal, type RunContents } from "../journal/ports";
import type { HistoryOptions, JournalRecord, RunSummary } from "../journal/types";

/** Pinned runs read by one bulk read. */
export const SNAPSHOT_CHUNK = 64;

/** A store without RunReader reads run by run (MemStore: no round trips to save). */
async function readRuns(journal: Journal, runIds: readonly string[]): Promise<RunContents[]> {
  if (isRunReader(journal)) return journal.readRuns(runIds);
  const contents = await Promise.all(
    runIds.map(async (runId) => {
      const summary = await journal.run(runId);
      return summary ? { summary, records: await journal.history(runId) } : undefined;
    }),
  );
  return contents.filter((content): content is RunContents => content !== undefined);
}

function slice(records: readonly JournalRecord[], options: HistoryOptions = {}): JournalRecord[] {
  const kinds = options.kinds && new Set(options.kinds);
  const before = options.before ?? Number.POSITIVE_INFINITY;
  const from = records.filter((record) => record.seq >= (options.from ?? 0) && record.seq < before && (!kinds || kinds.has(record.kind)));
  return options.limit === undefined ? from : from.slice(0, options.limit);
}

/**
 * The journal, but with `runId`'s reads answered from `contents` (undefined: the run was not
 * found). A Proxy rather than a wrapper class: the journal's optional capabilities (Lister,
 * Leaser, Forker…, found by duck typing) must stay visible to the code the replay runs.
 */
function pinnedView(journal: Journal, runId: string, contents: RunContents | undefined): Journal {
  const reads: Pick<Journal, "run" | "history" | "record"> = {
    run: (id: string): Promise<RunSummary | undefined> => (id === runId ? Promise.resolve(contents?.summary) : journal.run(id)),
    history: (id: string, options?: HistoryOptions) => (id === runId ? Promise.resolve(slice(contents?.records ?? [], options)) : journal.history(id, options)),
    record: (id: string, name: string) => (id === runId ? Promise.resolve(contents?.records.find((record) => record.name === name)) : journal.record(id, name)),
  };
  return new Proxy(journal, {
    get(target, key) {
      if (key === "run" || key === "history" || key === "record") return reads[key];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export class PinnedRuns {
  private readonly positions: Map<string, number>;
  private readonly loaded = new Map<string, RunContents | undefined>();
  private readonly loading = new Map<string, Promise<void>>();

  /** `runIds`: the runs in the order the batch replays them. */
  constructor(
    private readonly journal: Journal,
    private readonly runIds: readonly string[],
    private readonly chunk = SNAPSHOT_CHUNK,
  ) {
    this.positions = new Map(runIds.map((runId, position) => [runId, position]));
  }

  /** The journal as `runId`'s replay sees it; reads the chunk from `runId` on when it is not read yet. */
  async view(runId: string): Promise<Journal> {
    if (!this.loaded.has(runId)) await (this.loading.get(runId) ?? this.load(runId));
    return pinnedView(this.journal, runId, this.loaded.get(runId));
  }

  /** Forgets a run whose replay is judged. */
  release(runId: string): void {
    this.loaded.delete(runId);
  }

  private load(runId: string): Promise<void> {
    const start = this.positions.get(runId) ?? 0;
    const wanted = [runId, ...this.runIds.slice(start + 1, start + this.chunk)];
    const runIds = [...new Set(wanted)].filter((id) => !this.loaded.has(id) && !this.loading.has(id));
    const work = readRuns(this.journal, runIds)
      .then((contents) => {
        const byId = new Map(contents.map((content) => [content.summary.runId, content]));
        for (const id of runIds) this.loaded.set(id, byId.get(id));
      })
      .finally(() => {
        for (const id of runIds) this.loading.delete(id);
      });
    for (const id of runIds) this.loading.set(id, work);
    return work;
  }
}
