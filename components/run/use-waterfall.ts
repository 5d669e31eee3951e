"use client";

/**
 * The waterfall's data in the browser (TanStack Query): never the whole run. Where the cursor's
 * bar is comes from a one-bar answer keyed by the step; the bars come in pages of WATERFALL_PAGE
 * by index, fetched as their rows scroll into view and kept (a page grows only while the run does).
 * A sub-agent's bars are its own run's first page, fetched when its call is expanded.
 */
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import type { WaterfallBar, WaterfallWindow } from "@/lib/inspect/waterfall";
import { getJson } from "../api";
import { runPath } from "./outline-pages";

export const WATERFALL_PAGE = 2_000;

export type WaterfallAnswer = WaterfallWindow & { runId: string };

function fetchWindow(runId: string, query: string): Promise<WaterfallAnswer> {
  return getJson<WaterfallAnswer>(`${runPath(runId)}/waterfall?${query}`);
}

/** The run's extent and the index of the bar at step `at` (a one-bar answer). `lastSeq` refreshes it as the run grows. */
export function useWaterfallMeta(runId: string, at: number, lastSeq: number) {
  return useQuery({
    queryKey: ["waterfall-at", runId, at, lastSeq],
    queryFn: () => fetchWindow(runId, `at=${at}&limit=1`),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

/** The pages holding rows `first`–`last` (bar indexes), fetched on demand; a lookup of bar by index. */
export function useWaterfallBars(runId: string, first: number, last: number, total: number) {
  const pages: number[] = [];
  if (total > 0) {
    for (let page = Math.floor(Math.max(0, first) / WATERFALL_PAGE); page <= Math.floor(Math.min(last, total - 1) / WATERFALL_PAGE); page += 1) pages.push(page);
  }
  const answers = useQueries({
    queries: pages.map((page) => ({
      // The page's expected size is in the key: a page still filling as the run grows is fetched again.
      queryKey: ["waterfall-page", runId, page, Math.min(WATERFALL_PAGE, total - page * WATERFALL_PAGE)],
      queryFn: () => fetchWindow(runId, `from=${page * WATERFALL_PAGE}&limit=${WATERFALL_PAGE}`),
      staleTime: Infinity,
    })),
  });
  const loaded = new Map<number, WaterfallBar[]>();
  answers.forEach((answer, index) => {
    if (answer.data) loaded.set(pages[index]!, answer.data.bars);
  });
  return {
    bar: (index: number): WaterfallBar | undefined => loaded.get(Math.floor(index / WATERFALL_PAGE))?.[index % WATERFALL_PAGE],
    error: answers.find((answer) => answer.error)?.error ?? null,
  };
}

/** The sub-agent runs whose calls are expanded: each one's first page of bars. */
export function useChildWaterfalls(runIds: readonly string[]) {
  const answers = useQueries({
    queries: runIds.map((runId) => ({
      queryKey: ["waterfall-child", runId],
      queryFn: () => fetchWindow(runId, `from=0&limit=${WATERFALL_PAGE}`),
      staleTime: 30_000,
    })),
  });
  return new Map(runIds.map((runId, index) => [runId, answers[index]!] as const));
}
