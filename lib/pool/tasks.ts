/**
 * The pool's tasks, as a worker thread runs them: each takes plain data a thread can be handed
 * (page texts, packed lists, numbers) and gives back packed results (lib/inspect/packed.ts), so
 * the thread that asked parses nothing and holds no object per record. Pure but for the diff's
 * port, from which it reads its pages as they are read from the database.
 */
import type { MessagePort } from "node:worker_threads";
import { runCost, type ModelPrice, type RunCost } from "../agent/pricing";
import { aggregateOutline, type AggregateGraph } from "../inspect/aggregate";
import { finishPoints, readPoints, startPoints, type PointsPass } from "../inspect/decision-points";
import { diffPointLists } from "../inspect/diff";
import { outlineChunk, type OutlineChunk } from "../inspect/outline-chunk";
import type { OutlineEntry } from "../inspect/outline";
import { packDiff, type PackedDiff } from "../inspect/packed-diff";
import { PackedItems, packList, type PackedList } from "../inspect/packed";
import { parseSecretKeys, secretKeyMatcher } from "../inspect/redact";
import { parseSearchQuery, searchSource, searchText, type SearchResult } from "../inspect/search";
import { layoutWaterfall, type WaterfallLayout } from "../inspect/waterfall";
import { turnsOf, type BarColumns, type TurnColumns } from "../inspect/bar-columns";
import { AnswerTooLargeError } from "../journal/errors";
import { parsePage } from "../journal/page";
import type { FlowNode } from "../inspect/flow";
import { flowToMermaid } from "../inspect/mermaid";
import type { StepTotals } from "../inspect/timeline";
import { prepareOtlp, type PreparedSpans } from "../otel/prepare";

/** A page of a run's records as the store gave it (PageReader): JSON text or its UTF-8 bytes. */
export type PageText = Uint8Array | string;

export interface OutlinePageInput {
  runId: string;
  page: PageText;
  totals: StepTotals;
}

/** A page of records into the chunk of the run's outline and timeline that follows `totals`. */
export function outlinePage({ runId, page, totals }: OutlinePageInput): OutlineChunk & { records: number } {
  const records = parsePage(runId, page);
  return { ...outlineChunk(records, totals), records: records.length };
}

/** Every entry of an outline held as packed chunks. */
function entriesOf(lists: readonly PackedList[]): OutlineEntry[] {
  const all = new PackedItems<OutlineEntry>(lists);
  return all.slice(0, all.length);
}

/**
 * renderMermaid's text of a run from its flowchart nodes (the timeline's: buildFlow's, by
 * construction); AnswerTooLargeError past `limitBytes`, which no answer may pass.
 */
export function mermaid({ nodes, limitBytes }: { nodes: PackedList[]; limitBytes: number }): string {
  const all = new PackedItems<FlowNode>(nodes);
  const text = flowToMermaid(all.slice(0, all.length));
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > limitBytes) throw new AnswerTooLargeError("the run's whole flowchart", bytes, limitBytes, "ask for ?at=N (the chart around step N) or ?aggregate=1 (its shape)");
  return text;
}

export function aggregate({ lists }: { lists: PackedList[] }): AggregateGraph {
  return aggregateOutline(entriesOf(lists));
}

/** The layout of a run's waterfall from its bar columns (the request thread names a window's bars). */
export function waterfall({ bars, steps }: { bars: BarColumns[]; steps: number }): WaterfallLayout {
  return layoutWaterfall(bars, steps);
}

export function cost({ turns, prices }: { turns: TurnColumns[]; prices: Record<string, ModelPrice> }): RunCost {
  return runCost(turnsOf(turns), prices);
}

/** A search chunk: the redacted texts of a page of records, with their names and kinds. */
export interface SearchChunk {
  from: number;
  records: number;
  texts: PackedList;
  names: PackedList;
  kinds: PackedList;
  chars: number;
}

export function searchPage({ runId, page, from, secretKeys }: { runId: string; page: PageText; from: number; secretKeys: string | undefined }): SearchChunk {
  const records = parsePage(runId, page).filter((record, index) => record.seq === from + index);
  const isSecret = secretKeyMatcher(parseSecretKeys(secretKeys));
  const texts = records.map((record) => searchText(record, { isSecret }));
  return {
    from,
    records: records.length,
    texts: packList(texts),
    names: packList(records.map((record) => record.name)),
    kinds: packList(records.map((record) => record.kind)),
    chars: texts.reduce((sum, text) => sum + text.length, 0),
  };
}

export interface SearchInput {
  query: string;
  length: number;
  texts: PackedList[];
  names: PackedList[];
  kinds: PackedList[];
  cursor?: number;
  limit?: number;
}

/** Searches a run's texts held as packed chunks (the query was checked by the caller; checked again here). */
export function search({ query, length, texts, names, kinds, cursor, limit }: SearchInput): SearchResult {
  const all = { texts: new PackedItems<string>(texts), names: new PackedItems<string>(names), kinds: new PackedItems<string>(kinds) };
  const decoded = { texts: all.texts.slice(0, length), names: all.names.slice(0, length), kinds: all.kinds.slice(0, length) };
  const source = {
    length: decoded.texts.length,
    text: (seq: number) => decoded.texts[seq]!,
    name: (seq: number) => decoded.names[seq]!,
    kind: (seq: number) => decoded.kinds[seq]!,
  };
  return searchSource(source, parseSearchQuery(query), { cursor, limit });
}

/** One message on a diff's port: a page of one side's decision records, or the end of both. */
export type DiffMessage = { side: "A" | "B"; page: PageText } | { end: true };

/**
 * Diffs two runs whose decision records arrive on `port` a page at a time, each side in seq
 * order. Every page is acknowledged once folded, so the reader keeps only a few in flight.
 */
export async function diffRuns({ a, b, realign, port }: { a: string; b: string; realign: boolean; port: MessagePort }): Promise<PackedDiff> {
  const passes: Record<"A" | "B", PointsPass> = { A: startPoints(), B: startPoints() };
  await new Promise<void>((done, fail) => {
    port.on("message", (message: DiffMessage) => {
      try {
        if ("end" in message) return done();
        const records = parsePage(message.side === "A" ? a : b, message.page);
        readPoints(passes[message.side], records, 0, records.length);
        port.postMessage("ack");
      } catch (error) {
        fail(error);
      }
    });
  });
  port.close();
  return packDiff(diffPointLists(finishPoints(passes.A), finishPoints(passes.B), { a, b, realign }));
}

export interface OtlpPrepareInput {
  /** The request body as sent, moved (transferred) to the worker, not copied. */
  body: ArrayBuffer;
  contentType: string | null;
  contentEncoding: string | null;
}

/** An OTLP request body decoded and sorted by trace (lib/otel/prepare.ts), off the request thread. */
export function otlpPrepare({ body, contentType, contentEncoding }: OtlpPrepareInput): PreparedSpans {
  return prepareOtlp({ body: new Uint8Array(body), contentType, contentEncoding });
}
