"use client";

/**
 * The diff page: two runs side by side, aligned by decision point (lib/inspect/diff.ts). The
 * cursor is `?at=N` (absent: the first divergence) and realignment `?realign=1`, both in the URL,
 * so "Copy link" reproduces the view. Rows, labels, the word and JSON diffs and the Markdown
 * summary are projections from lib/inspect/diff-view.ts; this only renders them.
 */
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { debounce, useQueryState } from "nuqs";
import { useCallback, useEffect, useMemo, useTransition } from "react";
import type { DiffEntry } from "@/lib/inspect/diff";
import { diffMarkdown, STATUS_WORDS, unpackRows, type DiffHead, type ForkLineageView, type PackedRows } from "@/lib/inspect/diff-view";
import type { OutlineEntry } from "@/lib/inspect/outline";
import { formatCount } from "@/lib/inspect/view";
import type { DiffStatus } from "@/lib/inspect/diff";
import type { RunSummary } from "@/lib/journal/types";
import { CopyButton } from "../copy-button";
import { HelpPopover } from "../help-popover";
import { diffHref, runHref } from "../links";
import { DIFF_PAGE } from "../page-sizes";
import { SecretKeysProvider } from "../payload-viewer";
import { useTimelineKeys } from "../timeline-controls";
import { DiffCharts } from "./diff-charts";
import { DiffDetail } from "./diff-detail";
import { DiffRows } from "./diff-rows";
import { BisectButton } from "./bisect-button";
import { diffParams } from "./diff-urls";
import { prefetchEntries, useDiffEntry } from "./use-diff-data";
import { SideCosts } from "../run/run-cost";

const URL_DELAY_MS = 200;
const STATUSES: DiffStatus[] = ["same", "changed", "missing", "added"];

export interface DiffInitial {
  head: DiffHead;
  /** Packed for the trip (see PackedRows); unpacked once in the browser. */
  rows: PackedRows;
  at: number;
  realign: boolean;
  page: { index: number; entries: DiffEntry[] };
  first: DiffEntry | null;
  runA: RunSummary;
  runB: RunSummary;
  outlineA: OutlineEntry[] | null;
  outlineB: OutlineEntry[] | null;
  /** B is a fork of A: where, and whether it edited the record there. */
  lineage: ForkLineageView | null;
  /** B replays A under a registry model and the server may run jobs: bisect is offered. */
  bisect: { model: string; scorers: string[] } | null;
}

const noop = () => {};

function AlignmentNote({ head, realign, onRealign, pending }: { head: DiffHead; realign: boolean; onRealign: (on: boolean) => void; pending: boolean }) {
  if (head.divergentAt === null) return <p className="diff-note">The runs decide identically: every decision point is the same.</p>;
  const realigned = head.alignment === "realigned";
  return (
    <div className={`diff-note${realigned ? " realigned" : ""}`} role="note" data-testid="alignment-note">
      <label className="realign-toggle">
        <input type="checkbox" checked={realign} onChange={(event) => onRealign(event.target.checked)} disabled={pending} /> Realign
      </label>{" "}
      {realigned ? (
        <span>
          <strong>Realigned</strong> after row {head.divergentAt} ({formatCount(head.realign?.edits ?? 0)} insertions and deletions).
        </span>
      ) : (
        <span>
          <strong>Aligned by position</strong> after the first divergence (row {head.divergentAt}).
          {realign && head.realign?.reason ? ` Realignment was not applied: ${head.realign.reason}.` : ""}
        </span>
      )}{" "}
      <HelpPopover label="About alignment">
        <p>By position, an extra call in one run shifts every row after it one place, and they read as changed: trust the first divergence and what precedes it.</p>
        <p>Realign matches the rows after the first divergence by a longest common subsequence of the decisions, and marks each such row “realigned”.</p>
      </HelpPopover>
      {pending ? <span className="notice"> Loading…</span> : null}
    </div>
  );
}

export function DiffView({ initial, secretKeys }: { initial: DiffInitial; secretKeys: string[] }) {
  const { head, runA, runB } = initial;
  const rows = useMemo(() => unpackRows(initial.rows), [initial.rows]);
  const client = useQueryClient();
  const last = rows.length - 1;
  const [rawAt, setRawAt] = useQueryState("at", diffParams.at.withOptions({ history: "replace", limitUrlUpdates: debounce(URL_DELAY_MS) }));
  const at = rawAt === null ? initial.at : Math.min(Math.max(rawAt, 0), Math.max(0, last));
  const onAt = useCallback((next: number) => void setRawAt(Math.max(0, Math.trunc(next))), [setRawAt]);
  const [pending, startTransition] = useTransition();
  // Realigning is another diff: the server computes it (shallow: false) and the page remounts on it.
  const [realignWanted, setRealign] = useQueryState("realign", diffParams.realign.withOptions({ shallow: false, history: "push", startTransition }));
  useTimelineKeys({ last, at, onAt, playing: false, onPlaying: noop });

  const source = { a: head.a, b: head.b, realign: initial.realign };
  const { entry, loading, error } = useDiffEntry(source, at, initial.page);
  useEffect(() => {
    const page = Math.floor(at / DIFF_PAGE);
    prefetchEntries(client, source, page + 1, rows.length);
    prefetchEntries(client, source, page - 1, rows.length);
    // source is rebuilt each render from values that only change with a remount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, at, rows.length]);

  const link = () => `${window.location.origin}${diffHref({ a: head.a, b: head.b, at, realign: initial.realign })}`;
  const nextDifference = (direction: 1 | -1) => {
    for (let index = at + direction; index >= 0 && index <= last; index += direction) if (rows[index]?.status !== "same") return index;
    return undefined;
  };
  const previous = nextDifference(-1);
  const next = nextDifference(1);

  return (
    <SecretKeysProvider patterns={secretKeys}>
      <div className="run-header">
        <h1 className="diff-title">
          Diff{" "}
          <Link className="mono" href={runHref(head.a)}>
            {head.a}
          </Link>{" "}
          →{" "}
          <Link className="mono" href={runHref(head.b)}>
            {head.b}
          </Link>
        </h1>
        <span className="top-spacer" />
        <CopyButton label="Copy link" text={link} />
        <CopyButton label="Copy as Markdown" text={() => diffMarkdown(head, initial.first ?? undefined, link())} />
      </div>
      {initial.bisect && head.divergentAt !== null ? <BisectButton runId={head.a} model={initial.bisect.model} scorers={initial.bisect.scorers} /> : null}
      <ul className="run-facts diff-summary" aria-label="Summary">
        <li>
          A <strong>{formatCount(head.pointsA)}</strong> decisions · B <strong>{formatCount(head.pointsB)}</strong> decisions
        </li>
        <SideCosts a={head.a} b={head.b} />
        {STATUSES.map((status) => (
          <li key={status} data-status={status}>
            <strong className={`status-word-${status}`}>{formatCount(head.summary[status])}</strong> {STATUS_WORDS[status]}
          </li>
        ))}
        <li>
          {head.divergentAt === null ? (
            "no divergence"
          ) : (
            <>
              first divergence at row <strong>{head.divergentAt}</strong>
            </>
          )}
        </li>
      </ul>
      <AlignmentNote head={head} realign={realignWanted} pending={pending} onRealign={(on) => void setRealign(on)} />
      <div className="diff-layout">
        <section className="panel" aria-labelledby="diff-rows-heading">
          <div className="toolbar">
            <h2 id="diff-rows-heading">Decision points ({formatCount(rows.length)})</h2>
            <span className="top-spacer" />
            <button type="button" onClick={() => previous !== undefined && onAt(previous)} disabled={previous === undefined}>
              Previous difference
            </button>
            <button type="button" onClick={() => next !== undefined && onAt(next)} disabled={next === undefined}>
              Next difference
            </button>
          </div>
          {rows.length === 0 ? (
            <p className="muted">Neither run has a decision point (a model step or a tool call).</p>
          ) : (
            <DiffRows rows={rows} at={at} onAt={onAt} divergentAt={head.divergentAt} lineage={initial.lineage} />
          )}
          <p className="notice">←/→ move between rows, Home and End jump.</p>
        </section>
        <DiffDetail head={head} at={at} entry={rows.length === 0 ? undefined : entry} loading={loading} error={error} />
      </div>
      <DiffCharts runA={runA} runB={runB} outlineA={initial.outlineA} outlineB={initial.outlineB} rows={rows} at={at} divergentAt={head.divergentAt} onAt={onAt} />
    </SecretKeysProvider>
  );
}
