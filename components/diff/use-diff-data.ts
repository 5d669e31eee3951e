"use client";

/**
 * The diff page's data in the browser (TanStack Query): the entries (both sides' detail) a page
 * at a time around the cursor, seeded with the page the server rendered; and each run's flowchart
 * nodes, from its outline (shipped with the page for a small run, fetched after first content for
 * a large one). Records never change once written, so nothing here is refetched.
 */
import { fetchOutline } from "../run/outline-pages";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import type { DiffEntry } from "@/lib/inspect/diff";
import type { OutlineEntry } from "@/lib/inspect/outline";
import { timelineOf, type Timeline } from "@/lib/inspect/timeline";
import { DIFF_PAGE } from "../page-sizes";
import { getJson } from "../api";

export interface DiffSource {
  a: string;
  b: string;
  realign: boolean;
}

function entriesKey(source: DiffSource, page: number) {
  return ["diff-entries", source.a, source.b, source.realign, page] as const;
}

/** A page of entries; the server may answer it in several parts (its response budget), read here until whole. */
async function fetchEntries(source: DiffSource, page: number): Promise<DiffEntry[]> {
  const end = (page + 1) * DIFF_PAGE;
  const entries: DiffEntry[] = [];
  for (let from: number | null = page * DIFF_PAGE; from !== null && from < end;) {
    const params: URLSearchParams = new URLSearchParams({ a: source.a, b: source.b, from: String(from), limit: String(end - from) });
    if (source.realign) params.set("realign", "1");
    const body: { entries: DiffEntry[]; nextFrom: number | null } = await getJson<{ entries: DiffEntry[]; nextFrom: number | null }>(`/api/diff/entries?${params.toString()}`);
    entries.push(...body.entries);
    from = body.entries.length > 0 ? body.nextFrom : null;
  }
  return entries;
}

export function prefetchEntries(client: QueryClient, source: DiffSource, page: number, total: number) {
  if (page < 0 || page * DIFF_PAGE >= total) return;
  void client.prefetchQuery({ queryKey: entriesKey(source, page), queryFn: () => fetchEntries(source, page), staleTime: Infinity });
}

/** The entry at `index`, from its page (fetched on demand); the server's page is in the cache from the start. */
export function useDiffEntry(source: DiffSource, index: number, initial: { index: number; entries: DiffEntry[] }) {
  const client = useQueryClient();
  useState(() => {
    client.setQueryData(entriesKey(source, initial.index), initial.entries);
    return null;
  });
  const page = Math.floor(Math.max(0, index) / DIFF_PAGE);
  const query = useQuery({ queryKey: entriesKey(source, page), queryFn: () => fetchEntries(source, page), staleTime: Infinity });
  const entry = query.data?.[index - page * DIFF_PAGE];
  return { entry: entry?.index === index ? entry : undefined, loading: query.isFetching && !entry, error: query.error };
}

/** A run's timeline (for its flowchart nodes and seq → node), from the shipped outline or the API. */
export function useFlowTimeline(runId: string, inline: OutlineEntry[] | null): { timeline: Timeline | undefined; error: Error | null } {
  const shipped = useMemo(() => (inline ? timelineOf(inline) : undefined), [inline]);
  const query = useQuery({
    queryKey: ["diff-timeline", runId],
    queryFn: async () => timelineOf(await fetchOutline(runId, 0).then((body) => body.entries)),
    enabled: !shipped,
    staleTime: Infinity,
    structuralSharing: false,
  });
  return { timeline: shipped ?? query.data, error: query.error };
}
