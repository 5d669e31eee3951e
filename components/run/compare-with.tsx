"use client";

/**
 * "Compare with…": picks or types another run id and opens the diff page of this run against it
 * (/diff?a={this}&b={other}). The suggestions (the most recent runs, replays first) are fetched
 * only when the field is first focused: most visits to a run never compare it.
 */
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import type { RunSummary } from "@/lib/journal/types";
import { diffHref } from "../links";

const SUGGESTIONS = 100;

export function CompareWith({ runId }: { runId: string }) {
  const router = useRouter();
  const listId = useId();
  const [other, setOther] = useState("");
  const [suggestions, setSuggestions] = useState<string[] | null>(null);
  const load = () => {
    if (suggestions) return;
    setSuggestions([]);
    void fetch(`/api/runs?limit=${SUGGESTIONS}`, { cache: "no-store" })
      .then((response) => (response.ok ? (response.json() as Promise<{ runs: RunSummary[] }>) : { runs: [] }))
      .then(({ runs }) => {
        const ids = runs.map((run) => run.runId).filter((id) => id !== runId);
        // Runs derived from this one (its replays, "order-123~v2") are the likeliest to compare with.
        setSuggestions([...ids.filter((id) => id.startsWith(`${runId}~`)), ...ids.filter((id) => !id.startsWith(`${runId}~`))]);
      })
      .catch(() => setSuggestions([]));
  };
  return (
    <form
      className="compare-with"
      role="search"
      aria-label="Compare with another run"
      onSubmit={(event) => {
        event.preventDefault();
        const target = other.trim();
        if (target) router.push(diffHref({ a: runId, b: target }));
      }}
    >
      <input
        type="text"
        aria-label="Compare with run"
        placeholder="Compare with…"
        list={listId}
        value={other}
        onFocus={load}
        onChange={(event) => setOther(event.target.value)}
        autoComplete="off"
        spellCheck={false}
      />
      <datalist id={listId}>
        {(suggestions ?? []).map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
      <button type="submit" disabled={!other.trim()}>
        Compare
      </button>
    </form>
  );
}
