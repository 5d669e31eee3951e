"use client";

/**
 * Both runs' flowcharts (the run page's Flowchart, unchanged): each highlights the selected row's
 * node and marks the first divergence's node (a red glow and dashed border). Clicking a node selects the
 * row that holds its record.
 */
import { useRouter } from "next/navigation";
import { useCallback } from "react";
import type { DiffRow } from "@/lib/inspect/diff-view";
import { rowOfSeq } from "@/lib/inspect/diff-view";
import type { Timeline } from "@/lib/inspect/timeline";
import { chartEnd } from "@/lib/inspect/view";
import type { RunSummary } from "@/lib/journal/types";
import type { OutlineEntry } from "@/lib/inspect/outline";
import { runHref } from "../links";
import { Flowchart } from "../run/flowchart";
import { useFlowTimeline } from "./use-diff-data";

/** The flowchart node holding `seq` (the last drawn at or before it); -1 (the start node) when there is none. */
function nodeOf(timeline: Timeline, seq: number | undefined): number {
  if (seq === undefined || seq < 0) return -1;
  return timeline.nodeAtStep[Math.min(seq, timeline.nodeAtStep.length - 1)] ?? -1;
}

interface SideProps {
  side: "A" | "B";
  run: RunSummary;
  outline: OutlineEntry[] | null;
  rows: readonly DiffRow[];
  at: number;
  divergentAt: number | null;
  onAt: (at: number) => void;
}

function SideChart({ side, run, outline, rows, at, divergentAt, onAt }: SideProps) {
  const router = useRouter();
  const { timeline, error } = useFlowTimeline(run.runId, outline);
  const seqOf = (row: DiffRow | undefined) => (side === "A" ? row?.seqA : row?.seqB);
  const onStep = useCallback(
    (seq: number) => {
      const row = rowOfSeq(rows, side, seq);
      if (row !== undefined) onAt(row);
    },
    [rows, side, onAt],
  );
  const openRun = useCallback((child: string) => router.push(runHref(child)), [router]);
  const title = `${side}: ${run.runId}`;
  if (!timeline) {
    return (
      <section className="panel">
        <h2>{title}</h2>
        <p className="muted">{error ? `Could not load the flowchart: ${error.message}` : "Loading the flowchart…"}</p>
      </section>
    );
  }
  return (
    <Flowchart
      runId={run.runId}
      title={title}
      nodes={timeline.nodes}
      end={chartEnd(run.status)}
      nodeIndex={nodeOf(timeline, seqOf(rows[at]))}
      marked={divergentAt === null ? -1 : nodeOf(timeline, seqOf(rows[divergentAt]))}
      onStep={onStep}
      onOpenRun={openRun}
    />
  );
}

export function DiffCharts(
  props: Omit<SideProps, "side" | "run" | "outline"> & { runA: RunSummary; runB: RunSummary; outlineA: OutlineEntry[] | null; outlineB: OutlineEntry[] | null },
) {
  const { runA, runB, outlineA, outlineB, ...shared } = props;
  return (
    <div className="diff-charts" data-testid="diff-charts">
      <SideChart side="A" run={runA} outline={outlineA} {...shared} />
      <SideChart side="B" run={runB} outline={outlineB} {...shared} />
    </div>
  );
}
