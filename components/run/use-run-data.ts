"use client";

/**
 * The data of one run in the browser (TanStack Query): its summary, its timeline (built from
 * the outline, fetched whole once and then only what was appended), and its records in pages
 * around the cursor. A live stream invalidates them; polling happens only while it is down.
 */
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { OutlineEntry } from "@/lib/inspect/outline";
import { extendTimeline, timelineOf, type Timeline } from "@/lib/inspect/timeline";
import type { JournalRecord, RunSummary } from "@/lib/journal/types";
import { useLiveChanges } from "../use-live";
import { fetchOutline, fetchRecords, runPath } from "./outline-pages";

import { RECORD_PAGE } from "../page-sizes";
import { getJson } from "../api";
const POLL_MS = 5_000;

export interface RunInitial {
  run: RunSummary;
  /** The whole outline when the run is small enough to ship with the page, else null. */
  entries: OutlineEntry[] | null;
  /** The records page that holds the initial cursor. */
  page: { index: number; records: JournalRecord[] };
}

function recordsKey(runId: string, page: number, expected: number) {
  return ["records", runId, page, expected] as const;
}

/** How many records page `page` holds when the run's last seq is `lastSeq`. */
export function pageFill(page: number, lastSeq: number): number {
  return Math.max(0, Math.min(RECORD_PAGE, lastSeq + 1 - page * RECORD_PAGE));
}

function fetchPage(runId: string, page: number) {
  return fetchRecords(runId, page * RECORD_PAGE, RECORD_PAGE);
}

export function prefetchPage(client: QueryClient, runId: string, page: number, lastSeq: number) {
  const expected = pageFill(page, lastSeq);
  if (page < 0 || expected === 0) return;
  void client.prefetchQuery({ queryKey: recordsKey(runId, page, expected), queryFn: () => fetchPage(runId, page), staleTime: Infinity });
}

/**
 * `loadTimeline`: false holds the outline back (the aggregated chart of a big run is drawn first:
 * the outline's pages would queue ahead of it on the server and in the browser).
 */
export function useRunData(runId: string, initial: RunInitial, loadTimeline = true) {
  const client = useQueryClient();
  // Seed the cache with what the server rendered, once, before any child reads it.
  useState(() => {
    client.setQueryData(recordsKey(runId, initial.page.index, initial.page.records.length), initial.page.records);
    return null;
  });

  const onChange = useCallback(() => {
    void client.invalidateQueries({ queryKey: ["timeline", runId] });
    void client.invalidateQueries({ queryKey: ["run", runId] });
  }, [client, runId]);
  const { connected, state: liveState } = useLiveChanges(`${runPath(runId)}/stream`, onChange);

  const run = useQuery({
    queryKey: ["run", runId],
    queryFn: () => getJson<{ run: RunSummary }>(runPath(runId)).then((body) => body.run),
    initialData: initial.run,
    staleTime: Infinity,
    refetchInterval: connected ? false : POLL_MS,
  });

  const timeline = useQuery({
    queryKey: ["timeline", runId],
    // Only what is new since the timeline in the cache: records never change once written.
    queryFn: async (): Promise<Timeline> => {
      const current = client.getQueryData<Timeline>(["timeline", runId]);
      const from = current?.entries.length ?? 0;
      const body = await fetchOutline(runId, from);
      client.setQueryData(["run", runId], body.run);
      return current ? extendTimeline(current, body.entries) : timelineOf(body.entries);
    },
    initialData: initial.entries ? () => timelineOf(initial.entries!) : undefined,
    enabled: loadTimeline,
    staleTime: Infinity,
    structuralSharing: false,
    refetchInterval: connected ? false : POLL_MS,
  });

  return { run: run.data, timeline: timeline.data, timelineError: timeline.error, live: liveState };
}

/** The record at `seq`, from its page (fetched on demand, kept forever: records never change). */
export function useRecord(runId: string, seq: number, lastSeq: number): { record: JournalRecord | undefined; loading: boolean; error: Error | null } {
  const page = Math.floor(Math.max(0, seq) / RECORD_PAGE);
  const expected = pageFill(page, lastSeq);
  const query = useQuery({
    queryKey: recordsKey(runId, page, expected),
    queryFn: () => fetchPage(runId, page),
    enabled: expected > 0,
    staleTime: Infinity,
    // While a page that grew is fetched again, keep showing the records it had.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === page ? previous : undefined),
  });
  const record = query.data?.[seq - page * RECORD_PAGE];
  return { record: record?.seq === seq ? record : undefined, loading: query.isFetching && !record, error: query.error };
}
