/** Small pure helpers the inspector's views share (formatting, run status words). */
import type { RunStatus, RunSummary } from "../journal/types";
import type { ChartEnd } from "./chart";

export function chartEnd(status: RunStatus): ChartEnd {
  return status === "complete" ? "complete" : status;
}

/** "paused (approval)" for a paused run, else its status. */
export function statusText(run: Pick<RunSummary, "status" | "pause">): string {
  return run.status === "paused" && run.pause ? `paused (${run.pause.reason})` : run.status;
}

/** Milliseconds a run took (complete), or has taken so far (its last change), or null without times. */
export function runDurationMs(run: Pick<RunSummary, "startedAt" | "updatedAt" | "completedAt">): number | null {
  const start = Date.parse(run.startedAt);
  const end = Date.parse(run.completedAt ?? run.updatedAt);
  return Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, end - start);
}

/** 850 ms, 12.4 s, 3 min 05 s, 2 h 04 min. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
  return `${Math.floor(seconds / 3_600)} h ${String(Math.floor((seconds % 3_600) / 60)).padStart(2, "0")} min`;
}

/** 1,234,567 (fixed separators, the same on server and client). */
export function formatCount(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** 2026-11-29 18:52:09 UTC: the same text on server and client, whatever their time zones. */
export function formatTime(iso: string | null): string {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().replace("T", " ").slice(0, 19)} UTC`;
}
