"use client";

/**
 * The runs list: filters and search in the URL (nuqs), keyset pages from /api/runs loaded as the
 * list scrolls (TanStack Query), rows virtualised, and statuses kept live by /api/stream.
 */
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import Link from "next/link";
import { useQueryStates } from "nuqs";
import { useCallback, useEffect, useRef, useState } from "react";
import { formatCount, formatDuration, formatTime, runDurationMs, statusText } from "@/lib/inspect/view";
import { RUN_STATUSES, type RunPage, type RunStatus, type RunSummary } from "@/lib/journal/types";
import { RUNS_PAGE } from "../page-sizes";
import { runHref } from "../links";
import { runsParams } from "../search-params";
import { useLiveChanges } from "../use-live";
import { EmptyState } from "./empty-state";

const ROW_HEIGHT = 33;
const POLL_MS = 5_000;
const LIVE_REFRESH_MS = 1_000;

interface Filters {
  status: RunStatus | null;
  agent: string | null;
  q: string | null;
}

export interface RunsListProps {
  initial: { filters: Filters; page: RunPage };
  agents: string[];
  database: { kind: string; target: string };
}

function query(filters: Filters, cursor: string | null): string {
  const params = new URLSearchParams({ limit: String(RUNS_PAGE) });
  if (filters.status) params.set("status", filters.status);
  if (filters.agent) params.set("agent", filters.agent);
  if (filters.q) params.set("search", filters.q);
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
  return a.status === b.status && a.agent === b.agent && a.q === b.q;
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

function Row({ run }: { run: RunSummary }) {
  return (
    <>
      <td className="mono">
        <Link href={runHref(run.runId)}>{run.runId}</Link>
      </td>
      <td>{run.agent ?? "—"}</td>
      <td className={`status status-${run.status}`} title={run.pause?.message ?? run.error ?? undefined}>
        {statusText(run)}
      </td>
      <td className="number">{formatCount(run.recordCount)}</td>
      <td className="number">{formatCount(run.modelTurns)}</td>
      <td className="number" title={`${run.inputTokens} in, ${run.outputTokens} out`}>
        {formatCount(run.inputTokens + run.outputTokens)}
      </td>
      <td className="muted">{formatTime(run.startedAt)}</td>
      <td className="number">{formatDuration(runDurationMs(run))}</td>
    </>
  );
}

export function RunsList({ initial, agents, database }: RunsListProps) {
  const [filters, setFilters] = useQueryStates(runsParams, { history: "replace" });
  const [text, setText] = useState(filters.q ?? "");
  const client = useQueryClient();

  // Search as the user types, once they pause. Only a changed search writes the URL: a write on
  // mount would land on the URL of a navigation that started meanwhile and send the user back here.
  const searched = filters.q ?? null;
  useEffect(() => {
    const wanted = text.trim() || null;
    if (wanted === searched) return;
    const timer = setTimeout(() => void setFilters({ q: wanted }), 250);
    return () => clearTimeout(timer);
  }, [text, searched, setFilters]);

  const refresh = useThrottled(
    useCallback(() => void client.invalidateQueries({ queryKey: ["runs"] }), [client]),
    LIVE_REFRESH_MS,
  );
  const { connected, state: liveState } = useLiveChanges("/api/stream", refresh);

  const runs = useInfiniteQuery({
    queryKey: ["runs", filters.status, filters.agent, filters.q],
    queryFn: ({ pageParam }) => fetchPage(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    initialData: same(filters, initial.filters) ? { pages: [initial.page], pageParams: [null] } : undefined,
    // While other filters load, keep showing the rows there were.
    placeholderData: (previous) => previous,
    staleTime: Infinity,
    refetchInterval: connected ? false : POLL_MS,
  });
  const rows = runs.data?.pages.flatMap((page) => page.runs) ?? [];

  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = runs;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= rows.length - 20) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastIndex, rows.length]);

  const filtered = Boolean(filters.status || filters.agent || filters.q);
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <>
      <h1>Runs</h1>
      <div className="filters" role="search">
        <label>
          Search
          <input type="search" aria-label="Search runs by id or input" placeholder="run id or input text" value={text} onChange={(event) => setText(event.target.value)} />
        </label>
        <label>
          Status
          <select aria-label="Status" value={filters.status ?? ""} onChange={(event) => void setFilters({ status: (event.target.value || null) as RunStatus | null })}>
            <option value="">All statuses</option>
            {RUN_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <label>
          Agent
          <select aria-label="Agent" value={filters.agent ?? ""} onChange={(event) => void setFilters({ agent: event.target.value || null })}>
            <option value="">All agents</option>
            {[...new Set([...agents, ...(filters.agent ? [filters.agent] : [])])].map((agent) => (
              <option key={agent} value={agent}>
                {agent}
              </option>
            ))}
          </select>
        </label>
        {filtered ? (
          <button
            type="button"
            onClick={() => {
              setText("");
              void setFilters({ status: null, agent: null, q: null });
            }}
          >
            Clear filters
          </button>
        ) : null}
        <span className="notice" role="status">
          {liveState === "live" ? "live" : `${liveState}…`}
        </span>
      </div>
      {runs.error ? <p className="error-box">The runs could not be loaded: {runs.error.message}</p> : null}
      {rows.length === 0 && !runs.isFetching ? (
        filtered ? (
          <p className="muted">No runs match these filters.</p>
        ) : (
          <EmptyState database={database} />
        )
      ) : (
        <div ref={scroller} style={{ maxHeight: "75vh", overflow: "auto" }} data-testid="runs-scroller">
          <table className="runs">
            <colgroup>
              <col style={{ width: "22%" }} />
              <col style={{ width: "10%" }} />
              <col style={{ width: "13%" }} />
              <col style={{ width: "8%" }} />
              <col style={{ width: "9%" }} />
              <col style={{ width: "9%" }} />
              <col style={{ width: "18%" }} />
              <col style={{ width: "11%" }} />
            </colgroup>
            <thead>
              <tr>
                <th>Run</th>
                <th>Agent</th>
                <th>Status</th>
                <th className="number">Records</th>
                <th className="number">Model turns</th>
                <th className="number">Tokens</th>
                <th>Started</th>
                <th className="number">Duration</th>
              </tr>
            </thead>
            <tbody>
              {before > 0 ? (
                <tr className="spacer" aria-hidden="true">
                  <td colSpan={8} style={{ height: before }} />
                </tr>
              ) : null}
              {items.map((item) => (
                <tr key={rows[item.index]!.runId} style={{ height: ROW_HEIGHT }}>
                  <Row run={rows[item.index]!} />
                </tr>
              ))}
              {after > 0 ? (
                <tr className="spacer" aria-hidden="true">
                  <td colSpan={8} style={{ height: after }} />
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      )}
      <div className="list-footer">
        <span className="muted">
          {formatCount(rows.length)} run{rows.length === 1 ? "" : "s"}
          {hasNextPage ? " loaded" : ""}
        </span>
        {hasNextPage ? (
          <button type="button" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        ) : null}
      </div>
    </>
  );
}
