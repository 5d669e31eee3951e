/**
 * Reading a run's outline and records through their paged endpoints: the server answers within a
 * response budget, so a long run's outline or a page of large records can come in several parts.
 */
import type { OutlineEntry } from "@/lib/inspect/outline";
import type { JournalRecord, RunSummary } from "@/lib/journal/types";
import { getJson } from "../api";

/** The API path of one run. */
export const runPath = (runId: string) => `/api/runs/${encodeURIComponent(runId)}`;

/** The outline from seq `from` to the run's end, all parts read. */
export async function fetchOutline(runId: string, from: number): Promise<{ run: RunSummary; entries: OutlineEntry[] }> {
  const entries: OutlineEntry[] = [];
  let run: RunSummary | undefined;
  for (let next: number | null = from; next !== null;) {
    const body: { run: RunSummary; entries: OutlineEntry[]; nextFrom?: number | null } = await getJson<{ run: RunSummary; entries: OutlineEntry[]; nextFrom?: number | null }>(
      `${runPath(runId)}/outline?from=${next}`,
    );
    run = body.run;
    entries.push(...body.entries);
    next = body.entries.length > 0 ? (body.nextFrom ?? null) : null;
  }
  return { run: run!, entries };
}

/** `count` records from seq `from` (fewer at the run's end), all parts read. */
export async function fetchRecords(runId: string, from: number, count: number): Promise<JournalRecord[]> {
  const records: JournalRecord[] = [];
  for (let next: number | null = from; next !== null && records.length < count;) {
    const body: { records: JournalRecord[]; nextFrom: number | null } = await getJson<{ records: JournalRecord[]; nextFrom: number | null }>(
      `${runPath(runId)}/records?from=${next}&limit=${count - records.length}`,
    );
    records.push(...body.records);
    next = body.records.length > 0 ? body.nextFrom : null;
  }
  return records;
}
