"use client";

/**
 * The runs list: filters and search in the URL (nuqs), keyset pages from /api/runs loaded as the
 * list scrolls (TanStack Query), rows virtualised, and statuses kept live by /api/stream. Its
 * state lives in use-runs.ts; this file draws it.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { formatUsd } from "@/lib/agent/pricing";
import { formatCount, formatDuration, formatTime, runDurationMs, statusText } from "@/lib/inspect/view";
import { RUN_STATUSES, type RunPage, type RunStatus, type RunSummary } from "@/lib/journal/types";
import { runHref } from "../links";
import { BulkActions, type Selection } from "./bulk-actions";
import { EmptyState } from "./empty-state";
import { useRunFilters, useRunPages, type Filters } from "./use-runs";

const ROW_HEIGHT = 33;

export interface RunsListProps {
  initial: { filters: Filters; page: RunPage };
  agents: string[];
  database: { kind: string; target: string };
  /** The registry's models for a bulk replay; null when the server is read-only (no bulk actions). */
  models: string[] | null;
}

/** Ticked rows and "all matching this filter"; a change of filter clears both. */
interface Picking {
  selection: Selection;
  toggle: (runId: string) => void;
  setAll: (allMatching: boolean) => void;
}

function Row({ run, picking }: { run: RunSummary; picking: Picking | null }) {
  return (
    <>
      {picking ? (
        <td>
          <input
            type="checkbox"
            aria-label={`Select ${run.runId}`}
            checked={picking.selection.allMatching || picking.selection.runIds.includes(run.runId)}
            disabled={picking.selection.allMatching}
            onChange={() => picking.toggle(run.runId)}
          />
        </td>
      ) : null}
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
      <td className="number" data-testid="run-cost" title={run.costUsd === null ? "unknown: a model turn has no price" : "at the server's prices"}>
        {formatUsd(run.costUsd)}
      </td>
      <td className="muted">{formatTime(run.startedAt)}</td>
      <td className="number">{formatDuration(runDurationMs(run))}</td>
    </>
  );
}

/** The search box, the status and agent pickers, and the live state. */
function RunFilters({ agents, liveState, state }: { agents: string[]; liveState: string; state: ReturnType<typeof useRunFilters> }) {
  const { filters, setFilters, text, setText, clear, filtered } = state;
  return (
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
      {filters.forkOf ? (
        <span className="chip" data-testid="fork-filter">
          forks of <span className="mono">{filters.forkOf}</span>
        </span>
      ) : null}
      {filtered ? (
        <button type="button" onClick={clear}>
          Clear filters
        </button>
      ) : null}
      <span className="notice" role="status">
        {liveState === "live" ? "live" : `${liveState}…`}
      </span>
    </div>
  );
}

type RunPages = ReturnType<typeof useRunPages>["runs"];
type FilterState = ReturnType<typeof useRunFilters>;

/** The Cost header sorts: by cost, dearest first; again, cheapest first; again, newest first. Unknown costs stay last. */
function CostHeader({ state }: { state: FilterState }) {
  const { filters, setFilters } = state;
  const sorted = filters.sort === "cost" ? (filters.order ?? "desc") : null;
  const next = sorted === null ? { sort: "cost" as const, order: null } : sorted === "desc" ? { sort: "cost" as const, order: "asc" as const } : { sort: null, order: null };
  const label = sorted === null ? "Cost: sort dearest first" : sorted === "desc" ? "Cost: sort cheapest first" : "Cost: sort newest first";
  return (
    <th className="number" aria-sort={sorted === null ? "none" : sorted === "asc" ? "ascending" : "descending"}>
      <button type="button" className="sort-header" title={label} aria-label={label} onClick={() => void setFilters(next)}>
        Cost{sorted === "desc" ? " ↓" : sorted === "asc" ? " ↑" : ""}
      </button>
    </th>
  );
}

/** The rows, virtualised: only those in view are in the document; the next page loads near the end. */
function RunsTable({ rows, runs, picking, state }: { rows: RunSummary[]; runs: RunPages; picking: Picking | null; state: FilterState }) {
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = runs;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= rows.length - 20) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastIndex, rows.length]);

  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <div ref={scroller} style={{ maxHeight: "75vh", overflow: "auto" }} data-testid="runs-scroller">
      <table className="runs">
        <colgroup>
          {picking ? <col style={{ width: "3%" }} /> : null}
          <col style={{ width: "20%" }} />
          <col style={{ width: "10%" }} />
          <col style={{ width: "12%" }} />
          <col style={{ width: "7%" }} />
          <col style={{ width: "8%" }} />
          <col style={{ width: "8%" }} />
          <col style={{ width: "8%" }} />
          <col style={{ width: "16%" }} />
          <col style={{ width: "11%" }} />
        </colgroup>
        <thead>
          <tr>
            {picking ? <th aria-label="Selected" /> : null}
            <th>Run</th>
            <th>Agent</th>
            <th>Status</th>
            <th className="number">Records</th>
            <th className="number">Model turns</th>
            <th className="number">Tokens</th>
            <CostHeader state={state} />
            <th>Started</th>
            <th className="number">Duration</th>
          </tr>
        </thead>
        <tbody>
          {before > 0 ? (
            <tr className="spacer" aria-hidden="true">
              <td colSpan={picking ? 10 : 9} style={{ height: before }} />
            </tr>
          ) : null}
          {items.map((item) => (
            <tr key={rows[item.index]!.runId} style={{ height: ROW_HEIGHT }}>
              <Row run={rows[item.index]!} picking={picking} />
            </tr>
          ))}
          {after > 0 ? (
            <tr className="spacer" aria-hidden="true">
              <td colSpan={picking ? 10 : 9} style={{ height: after }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

/** The selection, kept per filter: a new filter starts with nothing selected. */
function usePicking(filters: Filters, enabled: boolean): Picking | null {
  const key = JSON.stringify(filters);
  const [state, setState] = useState<{ key: string; selection: Selection }>({ key, selection: { runIds: [], allMatching: false } });
  const selection = state.key === key ? state.selection : { runIds: [], allMatching: false };
  const set = (next: Selection) => setState({ key, selection: next });
  const toggle = (runId: string) => set({ ...selection, runIds: selection.runIds.includes(runId) ? selection.runIds.filter((id) => id !== runId) : [...selection.runIds, runId] });
  return enabled ? { selection, toggle, setAll: (allMatching) => set({ ...selection, allMatching }) } : null;
}

export function RunsList({ initial, agents, database, models }: RunsListProps) {
  const filterState = useRunFilters();
  const { runs, rows, liveState } = useRunPages(filterState.filters, initial);
  const picking = usePicking(filterState.filters, models !== null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = runs;
  return (
    <>
      <h1>Runs</h1>
      <RunFilters agents={agents} liveState={liveState} state={filterState} />
      {picking && models ? (
        <div className="toolbar">
          <label>
            <input type="checkbox" checked={picking.selection.allMatching} onChange={(event) => picking.setAll(event.target.checked)} /> All matching this filter
          </label>
          <BulkActions selection={picking.selection} filters={filterState.filters} models={models} />
        </div>
      ) : null}
      {runs.error ? <p className="error-box">The runs could not be loaded: {runs.error.message}</p> : null}
      {rows.length === 0 && !runs.isFetching ? (
        filterState.filtered ? (
          <p className="muted">No runs match these filters.</p>
        ) : (
          <EmptyState database={database} />
        )
      ) : (
        <RunsTable rows={rows} runs={runs} picking={picking} state={filterState} />
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
