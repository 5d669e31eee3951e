"use client";

/**
 * The runs list's state: its filters in the URL (nuqs), the search box's text applied once the
 * user pauses, and the matching runs in keyset pages from /api/runs (TanStack Query), refreshed
 * on live changes (/api/stream) and polled while the stream is down.
 */
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { useCallback, useEffect, useRef, useState } from "react";
import type { RunPage, RunStatus } from "@/lib/journal/types";
import { RUNS_PAGE } from "../page-sizes";
import { runsParams } from "../search-params";
import { useLiveChanges } from "../use-live";

const POLL_MS = 5_000;
const LIVE_REFRESH_MS = 1_000;

export interface Filters {
  status: RunStatus | null;
  agent: string | null;
  q: string | null;
  forkOf: string | null;
  /** The order, not a filter: "Clear filters" keeps it. */
  sort: "cost" | null;
  order: "asc" | "desc" | null;
}

function query(filters: Filters, cursor: string | null): string {
  const params = new URLSearchParams({ limit: String(RUNS_PAGE) });
  if (filters.status) params.set("status", filters.status);
  if (filters.agent) params.set("agent", filters.agent);
  if (filters.q) params.set("search", filters.q);
  if (filters.forkOf) params.set("forkOf", filters.forkOf);
  if (filters.sort) params.set("sort", filters.sort);
  if (filters.sort && filters.order) params.set("order", filters.order);
  if (cursor) params.set("cursor", cursor);
  return `/api/runs?${params}`;
}

async function fetchPage(filters: Filters, cursor: string | null): Promise<RunPage> {
  const response = await fetch(query(filters, cursor), { cache: "no-store" });
  const body = (await response.json()) as RunPage & { error?: { message: string } };
  if (!response.ok) throw new Error(body.error?.message ?? `the runs list answered ${response.status}`);
  return body;
}

function same(a: Filters, b: Filters): boolean {
  return a.status === b.status && a.agent === b.agent && a.q === b.q && a.forkOf === b.forkOf && a.sort === b.sort && a.order === b.order;
}

/** Calls `work` at most once per `ms`, the last call always honoured. */
function useThrottled(work: () => void, ms: number): () => void {
  const state = useRef<{ last: number; timer?: ReturnType<typeof setTimeout> }>({ last: 0 });
  useEffect(() => () => clearTimeout(state.current.timer), []);
  return useCallback(() => {
    const now = Date.now();
    const wait = state.current.last + ms - now;
    if (wait <= 0) {
      state.current.last = now;
      work();
    } else {
      state.current.timer ??= setTimeout(() => {
        state.current.timer = undefined;
        state.current.last = Date.now();
        work();
      }, wait);
    }
  }, [work, ms]);
}

/** The filters from the URL, and the search box's text, written to the URL once the user pauses. */
export function useRunFilters() {
  const [filters, setFilters] = useQueryStates(runsParams, { history: "replace" });
  const [text, setText] = useState(filters.q ?? "");

  // Search as the user types, once they pause. Only a real change touches the URL: an update
  // queued on mount would replace the URL with /runs after the user had already navigated away.
  const query = text.trim() || null;
  useEffect(() => {
    if (query === (filters.q ?? null)) return;
    const timer = setTimeout(() => void setFilters({ q: query }), 250);
    return () => clearTimeout(timer);
  }, [query, filters.q, setFilters]);

  const clear = () => {
    setText("");
    void setFilters({ status: null, agent: null, q: null, forkOf: null });
  };
  return { filters, setFilters, text, setText, clear, filtered: Boolean(filters.status || filters.agent || filters.q || filters.forkOf) };
}

/** The runs matching `filters`, page by page; the server's first page is used while the filters are its own. */
export function useRunPages(filters: Filters, initial: { filters: Filters; page: RunPage }) {
  const client = useQueryClient();
  const refresh = useThrottled(
    useCallback(() => void client.invalidateQueries({ queryKey: ["runs"] }), [client]),
    LIVE_REFRESH_MS,
  );
  const { connected, state: liveState } = useLiveChanges("/api/stream", refresh);

  const runs = useInfiniteQuery({
    queryKey: ["runs", filters.status, filters.agent, filters.q, filters.forkOf, filters.sort, filters.order],
    queryFn: ({ pageParam }) => fetchPage(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    initialData: same(filters, initial.filters) ? { pages: [initial.page], pageParams: [null] } : undefined,
    // While other filters load, keep showing the rows there were.
    placeholderData: (previous) => previous,
    staleTime: Infinity,
    refetchInterval: connected ? false : POLL_MS,
  });
  return { runs, rows: runs.data?.pages.flatMap((page) => page.runs) ?? [], liveState };
}
