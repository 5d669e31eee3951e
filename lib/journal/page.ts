/**
 * A page of records as one JSON text (the PageReader port's form): `[[seq, name, kind, payload,
 * createdAt], …]` in seq order. The text crosses threads as bytes and is parsed where the work is
 * done, so the thread that read it never holds an object per record.
 */
import type { JournalRecord } from "./types";

type PageRow = [number, string, string, unknown, string];

/** The page text of `records`. */
export function pageOf(records: readonly JournalRecord[]): string {
  return JSON.stringify(records.map((record): PageRow => [record.seq, record.name, record.kind, record.payload, record.createdAt]));
}

const decoder = new TextDecoder();

/** The records of a page of run `runId`, from its text or its UTF-8 bytes. */
export function parsePage(runId: string, page: Uint8Array | string): JournalRecord[] {
  const rows = JSON.parse(typeof page === "string" ? page : decoder.decode(page)) as PageRow[];
  return rows.map(([seq, name, kind, payload, createdAt]) => ({ runId, seq, name, kind, payload, createdAt }));
}
