/**
 * Reading runs a page at a time for the pool: the reading thread asks the store for page text
 * (PageReader: the database makes it) and hands it to a worker unparsed, moving its bytes.
 */
import { pageOf } from "../journal/page";
import { isPageReader, type Journal } from "../journal/ports";
import type { HistoryOptions } from "../journal/types";
import type { PageText } from "./tasks";

/** How a reader takes its turn before each page read (a server lets requests between reads); by default, none. */
export type Gate = <T>(read: () => Promise<T>) => Promise<T>;

const open: Gate = (read) => read();

/** A window of a run's records as page text. */
export function readPage(store: Pick<Journal, "history">, runId: string, options: HistoryOptions, gate: Gate = open): Promise<PageText> {
  return gate(async () => (isPageReader(store) ? store.historyPage(runId, options) : pageOf(await store.history(runId, options))));
}

/** What to hand the pool along with a page: its bytes' buffer, moved rather than copied. */
export function moved(page: PageText): ArrayBuffer[] {
  return typeof page === "string" ? [] : [page.buffer as ArrayBuffer];
}

/**
 * Records a page of a whole-run read: large where the database makes the page's text on its own
 * cores (a server), small where it runs on the reading thread (an embedded database).
 */
export function pageRecords(store: unknown): number {
  return (store as { client?: { kind?: string } }).client?.kind === "server" ? 5_000 : 1_000;
}

/**
 * Reads run `runId`'s records from seq `from` through `lastSeq`, `size` a page, one page read
 * ahead while `fold` hands the last to the pool; `fold` answers how many records it took, and
 * reading stops at a page it did not take whole (a short page: the run's end; or a page whose
 * seqs broke off).
 */
export async function foldPages(
  store: Pick<Journal, "history">,
  runId: string,
  range: { from: number; lastSeq: number; size: number; gate?: Gate },
  fold: (page: PageText, from: number) => Promise<number>,
): Promise<void> {
  const { lastSeq, size } = range;
  const read = (from: number): Promise<PageText> => {
    const page = readPage(store, runId, { from, limit: size }, range.gate);
    // Read ahead while the pool folds the page before; a failure is met when it is awaited.
    page.catch(() => undefined);
    return page;
  };
  let from = range.from;
  let next: Promise<PageText> | undefined = read(from);
  while (next) {
    const page = await next;
    next = from + size <= lastSeq ? read(from + size) : undefined;
    if ((await fold(page, from)) < size) return;
    from += size;
  }
}
