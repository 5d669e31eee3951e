"use client";

/**
 * The inspector of one run: header, timeline controls, records, flowchart, the record at the
 * cursor and the state as of it. The cursor is `?at=N` in the URL (nuqs), so a reload or a
 * shared link shows the same view. Data comes from use-run-data.ts; every view is a projection
 * from lib/inspect.
 */
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { debounce, useQueryState } from "nuqs";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { aggregateStep } from "@/lib/inspect/aggregate";
import { WINDOW_DEFAULTS } from "@/lib/inspect/chart";
import { outlineEntry } from "@/lib/inspect/outline";
import { clampStep, summaryAt, type StepSummary } from "@/lib/inspect/timeline";
import { chartEnd, formatCount, formatDuration, formatTime, runDurationMs, statusText } from "@/lib/inspect/view";
import type { JournalRecord, RunSummary } from "@/lib/journal/types";
import { CopyButton } from "../copy-button";
import { runHref } from "../links";
import { SecretKeysProvider } from "../payload-viewer";
import { runParams } from "../search-params";
import type { LiveState } from "../use-live";
import { TimelineControls, usePlayback, usePlaybackState, useTimelineKeys } from "../timeline-controls";
import { AggregatedChart, stepKeyAt } from "./aggregated-chart";
import { ChartTabs } from "./chart-tabs";
import { CompareWith } from "./compare-with";
import { Flowchart } from "./flowchart";
import { RecordDetail } from "./record-detail";
import { RecordsList } from "./records-list";
import { PinButton } from "./pin-button";
import { ReplayButton } from "./replay-dialog";
import { RunSearch, useRunSearch } from "./run-search";
import { RunCostFact } from "./run-cost";
import { ForkButton } from "./fork-dialog";
import { TryButton } from "./try-dialog";
import { ForkLineage } from "./fork-lineage";
import { StatePanel } from "./state-panel";
import { RECORD_PAGE } from "../page-sizes";
import { prefetchPage, useRecord, useRunData, type RunInitial } from "./use-run-data";
import { Waterfall } from "./waterfall";

const URL_DELAY_MS = 200;

export interface RunInspectorProps {
  /** summary: the run at `at`, computed by the server when it shipped the outline. */
  initial: RunInitial & { at: number; summary: StepSummary | null };
  secretKeys: string[];
  /** What the server allows: replays (null when it is read-only) and the models they may use. */
  replay: { models: string[] } | null;
}

interface RunHeaderProps {
  run: RunSummary;
  live: LiveState;
  at: number;
  lastSeq: number;
  replay: RunInspectorProps["replay"];
  record: JournalRecord | undefined;
  recordedModel: string | null;
}

function RunHeader({ run, live, at, lastSeq, replay, record, recordedModel }: RunHeaderProps) {
  return (
    <>
      <div className="run-header">
        <h1 className="mono">{run.runId}</h1>
        <span className={`status status-${run.status}`} title={run.pause?.message ?? run.error ?? undefined}>
          {statusText(run)}
        </span>
        <span className="notice" role="status">
          {run.status === "running" || run.status === "paused" ? (live === "live" ? "live" : `${live}…`) : ""}
        </span>
        <span className="top-spacer" />
        {replay ? <ReplayButton runId={run.runId} models={replay.models} /> : null}
        {replay ? <ForkButton key={at} runId={run.runId} at={at} record={record} models={replay.models} recordedModel={recordedModel} /> : null}
        {replay ? <TryButton key={`try-${at}`} runId={run.runId} at={at} record={record} models={replay.models} recordedModel={recordedModel} /> : null}
        {replay ? <PinButton runId={run.runId} /> : null}
        <CompareWith runId={run.runId} />
        <CopyButton label="Copy link" text={() => linkHere(run.runId, at)} />
      </div>
      <ul className="run-facts">
        <li>
          agent <strong>{run.agent ?? "—"}</strong>
        </li>
        {run.parentRunId ? (
          <li>
            sub-agent of <Link href={runHref(run.parentRunId)}>{run.parentRunId}</Link>
          </li>
        ) : null}
        <li>
          <strong>{formatCount(run.recordCount)}</strong> records
        </li>
        <li>
          <strong>{formatCount(run.modelTurns)}</strong> model turns
        </li>
        <li>
          <strong>{formatCount(run.inputTokens + run.outputTokens)}</strong> tokens
        </li>
        <RunCostFact runId={run.runId} lastSeq={lastSeq} />
        <li>started {formatTime(run.startedAt)}</li>
        <li>
          {run.completedAt ? "took" : "for"} {formatDuration(runDurationMs(run))}
        </li>
      </ul>
      <ForkLineage run={run} />
      {run.pause ? <p className="status-paused">Waiting: {run.pause.message}</p> : null}
      {run.error ? <p className="status-failed">Failed: {run.error}</p> : null}
    </>
  );
}

/** This view's link: the cursor first (the URL may not have caught up with it yet), then the rest of the view's URL state (search, chart view, filter, tab) as the URL has it. */
function linkHere(runId: string, at: number): string {
  const link = new URL(runHref(runId, at), window.location.origin);
  for (const [name, value] of new URLSearchParams(window.location.search)) if (name !== "at") link.searchParams.set(name, value);
  return link.toString();
}

/** Following a live run: a cursor on the last step stays on the last step as the run grows. */
function useFollowLive(lastSeq: number, at: number, playing: boolean, onAt: (step: number) => void) {
  const previousLast = useRef(lastSeq);
  useEffect(() => {
    if (lastSeq > previousLast.current && at === previousLast.current && !playing) onAt(lastSeq);
    previousLast.current = lastSeq;
  }, [lastSeq, at, playing, onAt]);
}

/** The records next to the cursor's page, so that stepping over a page boundary waits for nothing. */
function usePrefetchNeighbours(runId: string, at: number, lastSeq: number) {
  const client = useQueryClient();
  useEffect(() => {
    const page = Math.floor(at / RECORD_PAGE);
    prefetchPage(client, runId, page + 1, lastSeq);
    if (page > 0) prefetchPage(client, runId, page - 1, lastSeq);
  }, [client, runId, at, lastSeq]);
}

/** The chart's view: the URL's, else aggregated for a run too large to draw whole (decided once, so it never flips as the outline loads). */
function useChartView(initial: RunInspectorProps["initial"]) {
  const [view, setView] = useQueryState("view", runParams.view.withOptions({ history: "replace" }));
  const [large] = useState(() => (initial.entries ? initial.entries.filter((entry) => entry.node !== null).length > WINDOW_DEFAULTS.fullLimit : true));
  return { view: view ?? (large ? "aggregated" : "expanded"), setView };
}

function ViewSwitch({ view, onView }: { view: "expanded" | "aggregated"; onView: (view: "expanded" | "aggregated") => void }) {
  return (
    <span className="view-switch" role="group" aria-label="Chart view">
      {(["expanded", "aggregated"] as const).map((option) => (
        <button key={option} type="button" aria-pressed={view === option} onClick={() => onView(option)}>
          {option === "expanded" ? "Expanded" : "Aggregated"}
        </button>
      ))}
    </span>
  );
}

export function RunInspector({ initial, secretKeys, replay }: RunInspectorProps) {
  const runId = initial.run.runId;
  const router = useRouter();
  const { view, setView } = useChartView(initial);
  // A big run opened aggregated draws its shape before its outline is asked for.
  const [shapeDrawn, setShapeDrawn] = useState(false);
  const data = useRunData(runId, initial, view !== "aggregated" || shapeDrawn || initial.entries !== null);
  const run = data.run ?? initial.run;
  const timeline = data.timeline;
  const lastSeq = Math.max(run.lastSeq, (timeline?.entries.length ?? 0) - 1);
  // The cursor moves at once; the URL follows when the scrubbing pauses (writing it costs a few ms a step).
  const [rawAt, setRawAt] = useQueryState("at", runParams.at.withOptions({ history: "replace", limitUrlUpdates: debounce(URL_DELAY_MS) }));
  const at = clampStep(rawAt, lastSeq);
  const [tab, setTab] = useQueryState("tab", runParams.tab.withOptions({ history: "replace" }));
  const { playing, setPlaying, speed, setSpeed } = usePlaybackState();
  const onAt = useCallback((next: number) => void setRawAt(Math.max(0, Math.trunc(next))), [setRawAt]);

  const openRun = useCallback((child: string) => router.push(runHref(child)), [router]);

  usePlayback(playing, speed, at, lastSeq, onAt, setPlaying);
  useTimelineKeys({ last: lastSeq, at, onAt, playing, onPlaying: setPlaying });

  useFollowLive(lastSeq, at, playing, onAt);
  usePrefetchNeighbours(runId, at, lastSeq);

  const summary = timeline ? summaryAt(timeline, at, run) : initial.summary && at === initial.summary.at ? initial.summary : undefined;
  const { record, loading, error } = useRecord(runId, at, lastSeq);
  const header = useRecord(runId, 0, lastSeq).record;
  const recordedModel = (header?.payload as { model?: unknown } | undefined)?.model;
  const forkAt = run.forkedFrom?.at ?? 0;
  const forkRecord = useRecord(runId, forkAt, lastSeq).record;
  const forkEdited = typeof (forkRecord?.payload as { edited?: unknown } | undefined)?.edited === "object";
  const forked = run.forkedFrom !== null;
  // Memoised: the flowchart is, and a new object each step would draw it again.
  const lineage = useMemo(() => (forked ? { at: forkAt, edited: forkEdited } : null), [forked, forkAt, forkEdited]);
  const entry = timeline?.entries[at] ?? summary?.entry;

  const [q, setQ] = useQueryState("q", runParams.q.withOptions({ history: "replace" }));
  const [show, setShow] = useQueryState("show", runParams.show.withOptions({ history: "replace" }));
  const search = useRunSearch(runId, q, lastSeq);
  const hitSeqs = search.data?.pages[0]?.seqs;
  const hits = useMemo(() => (hitSeqs ? new Set(hitSeqs) : undefined), [hitSeqs]);
  const switcher = <ViewSwitch view={view} onView={(next) => void setView(next)} />;
  // Before the outline is loaded, the record at the cursor says which step it is (when it is drawn).
  const currentKey = timeline ? stepKeyAt(timeline.entries, at) : record ? aggregateStep(outlineEntry(record))?.key : undefined;

  return (
    <SecretKeysProvider patterns={secretKeys}>
      <RunHeader run={run} live={data.live} at={at} lastSeq={lastSeq} replay={replay} record={record} recordedModel={typeof recordedModel === "string" ? recordedModel : null} />
      <RunSearch q={q} onQ={(next) => void setQ(next)} search={search} at={at} onAt={onAt} />
      <TimelineControls
        marks={hitSeqs}
        last={lastSeq}
        at={at}
        onAt={onAt}
        playing={playing}
        onPlaying={setPlaying}
        speed={speed}
        onSpeed={setSpeed}
        describe={(step) => `step ${step} of ${lastSeq}${timeline?.entries[step] ? `: ${timeline.entries[step].title}` : ""}`}
      />
      <div className="inspector">
        {timeline ? (
          <RecordsList entries={timeline.entries} at={at} onAt={onAt} hits={hits} show={show} onShow={(next) => void setShow(next)} />
        ) : (
          <section className="panel">
            <h2>Records ({formatCount(run.recordCount)})</h2>
            <p className="muted">{data.timelineError ? `Could not load the timeline: ${data.timelineError.message}` : "Loading the timeline…"}</p>
          </section>
        )}
        <ChartTabs
          tab={tab}
          onTab={(next) => void setTab(next)}
          panels={{
            flowchart: () =>
              view === "aggregated" ? (
                <AggregatedChart
                  runId={runId}
                  lastSeq={run.lastSeq}
                  end={chartEnd(run.status)}
                  entries={timeline?.entries ?? null}
                  currentKey={currentKey}
                  at={at}
                  onStep={onAt}
                  switcher={switcher}
                  onDrawn={() => setShapeDrawn(true)}
                />
              ) : timeline ? (
                <Flowchart
                  runId={runId}
                  nodes={timeline.nodes}
                  end={chartEnd(run.status)}
                  nodeIndex={summary?.nodeIndex ?? -1}
                  onStep={onAt}
                  onOpenRun={openRun}
                  switcher={switcher}
                  lineage={lineage}
                />
              ) : (
                <section className="panel">
                  <h2>Flowchart</h2>
                  <p className="muted">Loading…</p>
                </section>
              ),
            waterfall: () => <Waterfall runId={runId} at={at} lastSeq={lastSeq} onAt={onAt} onOpenRun={openRun} />,
          }}
        />
        <div className="side">
          <RecordDetail record={record} entry={entry} at={at} loading={loading} error={error} lastSeq={lastSeq} />
          {timeline && summary ? <StatePanel runId={runId} timeline={timeline} summary={summary} lastSeq={lastSeq} onAt={onAt} /> : null}
        </div>
      </div>
    </SecretKeysProvider>
  );
}
