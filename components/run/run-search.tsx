"use client";

/**
 * Search inside a run: the box "Search this run" (its query is `?q=` in the URL), the hit count,
 * "Previous match" / "Next match" (and Shift+Enter / Enter in the box) moving the cursor, and the
 * hits with their excerpts. The search runs on the server over redacted text
 * (`/api/runs/{id}/search`); this component only asks and shows. The page marks the hits
 * (`useRunSearch(…).seqs`) on the timeline and in the records list.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { SearchResult } from "@/lib/inspect/search";
import { formatCount } from "@/lib/inspect/view";
import { getJson } from "../api";
import { runPath } from "./outline-pages";

/** The run's search for `q` (null: none), refreshed as the run grows; pages of hits load on demand. */
export function useRunSearch(runId: string, q: string | null, lastSeq: number) {
  return useInfiniteQuery({
    queryKey: ["search", runId, q, lastSeq],
    enabled: q !== null && q.trim().length > 0,
    initialPageParam: null as number | null,
    queryFn: ({ pageParam }) => getJson<SearchResult>(`${runPath(runId)}/search?q=${encodeURIComponent(q ?? "")}${pageParam === null ? "" : `&cursor=${pageParam}`}`),
    getNextPageParam: (page) => page.nextCursor,
    staleTime: Infinity,
    retry: false,
    // While a grown run is searched again, keep showing the hits it had.
    placeholderData: (previous) => previous,
  });
}

/** The first hit after `at` (wrapping to the first), or the last before it (wrapping to the last). */
export function nextHit(seqs: readonly number[], at: number, direction: 1 | -1): number | undefined {
  if (seqs.length === 0) return undefined;
  let low = 0;
  let high = seqs.length;
  // The first index whose seq is > at (direction 1) or >= at (direction -1).
  while (low < high) {
    const middle = (low + high) >> 1;
    if (direction === 1 ? seqs[middle]! <= at : seqs[middle]! < at) low = middle + 1;
    else high = middle;
  }
  if (direction === 1) return seqs[low] ?? seqs[0];
  return seqs[low - 1] ?? seqs[seqs.length - 1];
}

export interface RunSearchProps {
  q: string | null;
  onQ: (q: string | null) => void;
  search: ReturnType<typeof useRunSearch>;
  at: number;
  onAt: (at: number) => void;
}

export function RunSearch({ q, onQ, search, at, onAt }: RunSearchProps) {
  const [text, setText] = useState(q ?? "");
  const hitsId = useId();
  // The URL changed under the box (back, a link, "Clear search"): show its query.
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    setText(q ?? "");
  }
  const first = search.data?.pages[0];
  const seqs = first?.seqs ?? [];
  const hits = search.data?.pages.flatMap((page) => page.hits) ?? [];
  const go = (direction: 1 | -1) => {
    const seq = nextHit(seqs, at, direction);
    if (seq !== undefined) onAt(seq);
  };
  const submit = (direction: 1 | -1) => {
    const wanted = text.trim().length > 0 ? text : null;
    if (wanted !== q) onQ(wanted);
    else go(direction);
  };
  const searching = q !== null && search.isFetching && !first;
  return (
    <section className="panel run-search" aria-label="Search">
      <form
        className="search-bar"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          submit(1);
        }}
      >
        <input
          type="search"
          aria-label="Search this run"
          placeholder="Search this run: text, or /regex/"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            // Enter submits the form (next match); Shift+Enter goes back.
            if (event.key === "Enter" && event.shiftKey) {
              event.preventDefault();
              submit(-1);
            }
            if (event.key === "Escape" && text) setText("");
          }}
        />
        <button type="button" onClick={() => go(-1)} disabled={seqs.length === 0}>
          Previous match
        </button>
        <button type="button" onClick={() => go(1)} disabled={seqs.length === 0}>
          Next match
        </button>
        <span className="search-count" role="status" aria-live="polite">
          {q === null ? "" : searching ? "Searching…" : search.error ? "" : first ? hitCount(first, seqs, at) : ""}
        </span>
        {q !== null ? (
          <button type="button" onClick={() => onQ(null)}>
            Clear search
          </button>
        ) : null}
      </form>
      {search.error ? <p className="error-box">{search.error.message}</p> : null}
      {first && hits.length > 0 ? (
        <details className="search-hits">
          <summary>Show the hits</summary>
          <ol id={hitsId} aria-label="Hits">
            {hits.map((hit) => (
              <li key={hit.seq}>
                <button type="button" className={hit.seq === at ? "current" : undefined} aria-current={hit.seq === at ? "step" : undefined} onClick={() => onAt(hit.seq)}>
                  <span className="seq">{hit.seq}</span> <span className="kind">{hit.kind}</span>{" "}
                  <span className="mono excerpt">
                    {hit.excerpt.slice(0, hit.matchStart)}
                    <mark>{hit.excerpt.slice(hit.matchStart, hit.matchEnd)}</mark>
                    {hit.excerpt.slice(hit.matchEnd)}
                  </span>
                </button>
              </li>
            ))}
          </ol>
          {search.hasNextPage ? (
            <button type="button" onClick={() => void search.fetchNextPage()} disabled={search.isFetchingNextPage}>
              More hits
            </button>
          ) : null}
        </details>
      ) : null}
    </section>
  );
}

function hitCount(result: SearchResult, seqs: readonly number[], at: number): string {
  if (result.total === 0) return "No hits";
  const index = seqs.indexOf(at);
  const where = index >= 0 ? `hit ${formatCount(index + 1)} of ` : "";
  return `${where}${formatCount(result.total)} hit${result.total === 1 ? "" : "s"}`;
}
