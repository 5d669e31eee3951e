"use client";

/**
 * The runs list's bulk actions on the selected runs, or on every root run matching the current
 * filter: pin them into a suite, replay them under a model (a batch of the `bulk` suite, run as a
 * server job; its page shows the progress and each replay's diff), or export them as JSONL.
 */
import Link from "next/link";
import { useId, useState } from "react";
import { postJson } from "../api";
import type { Filters } from "./use-runs";

export interface Selection {
  runIds: string[];
  /** Every root run matching the filter, rather than the ticked rows. */
  allMatching: boolean;
}

/** The filter in the bulk API's form (the runs list's `q` is the API's `search`). */
export function filterText(filters: Filters): string {
  const params = new URLSearchParams();
  if (filters.status) params.set("status", filters.status);
  if (filters.agent) params.set("agent", filters.agent);
  if (filters.q) params.set("search", filters.q);
  return params.toString();
}

function target(selection: Selection, filters: Filters): { runIds: string[] } | { filter: string } {
  return selection.allMatching ? { filter: filterText(filters) } : { runIds: selection.runIds };
}

function exportHref(selection: Selection, filters: Filters): string {
  const params = new URLSearchParams();
  if (selection.allMatching) params.set("filter", filterText(filters));
  else for (const runId of selection.runIds) params.append("run", runId);
  return `/api/bulk/export?${params.toString()}`;
}

type Outcome = { text: string; href?: string } | { error: string };

export function BulkActions({ selection, filters, models }: { selection: Selection; filters: Filters; models: string[] }) {
  const id = useId();
  const [suite, setSuite] = useState("default");
  const [model, setModel] = useState("recorded");
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const count = selection.allMatching ? "all runs matching this filter" : `${selection.runIds.length} selected`;
  const none = !selection.allMatching && selection.runIds.length === 0;
  const act = async (work: () => Promise<Outcome>) => {
    setSending(true);
    try {
      setOutcome(await work());
    } catch (error) {
      setOutcome({ error: error instanceof Error ? error.message : String(error) });
    } finally {
      setSending(false);
    }
  };
  const pin = () =>
    act(async () => {
      const answer = await postJson<{ suite: string; pinned: number; already: number }>("/api/bulk", { action: "pin", suite, ...target(selection, filters) });
      return { text: `Pinned ${answer.pinned} run(s) in suite ${answer.suite}${answer.already ? ` (${answer.already} already were)` : ""}`, href: "/suites" };
    });
  const replay = () =>
    act(async () => {
      const answer = await postJson<{ href: string }>("/api/bulk", { action: "replay", model, ...target(selection, filters) });
      return { text: "Replays started: follow them", href: answer.href };
    });
  return (
    <div className="toolbar" role="group" aria-label="Bulk actions">
      <span className="notice">{count}:</span>
      <label htmlFor={`${id}-suite`}>Suite</label>
      <input id={`${id}-suite`} type="text" value={suite} onChange={(event) => setSuite(event.target.value)} style={{ minWidth: 100 }} />
      <button type="button" disabled={none || sending || suite === ""} onClick={() => void pin()}>
        Pin selected
      </button>
      <label htmlFor={`${id}-model`}>Model</label>
      <select id={`${id}-model`} value={model} onChange={(event) => setModel(event.target.value)}>
        <option value="recorded">recorded outputs</option>
        {models.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <button type="button" disabled={none || sending} onClick={() => void replay()}>
        Replay selected
      </button>
      {none ? null : (
        <a href={exportHref(selection, filters)} download="backtrack-runs.jsonl">
          Export selected
        </a>
      )}
      {outcome && "error" in outcome ? (
        <span role="alert" className="notice">
          {outcome.error}
        </span>
      ) : outcome ? (
        <span role="status" className="notice">
          {outcome.href ? <Link href={outcome.href}>{outcome.text}</Link> : outcome.text}
        </span>
      ) : null}
    </div>
  );
}
