"use client";

/**
 * The diff page's "Find the step that flips it" for a run and its replay under a model: a
 * scorer to judge by, then a `bisect` job (POST /api/runs/{a}/bisect) followed until it ends,
 * and `k` with a link to the diff of the run and its fork that goes live at k.
 */
import { useState } from "react";
import type { BisectResult } from "@/lib/fork/bisect";
import { postJson } from "../api";
import { diffHref } from "../links";
import { useJob } from "../use-job";
import Link from "next/link";

export function BisectButton({ runId, model, scorers }: { runId: string; model: string; scorers: string[] }) {
  const [scorer, setScorer] = useState(scorers.includes("same-decisions") ? "same-decisions" : (scorers[0] ?? ""));
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const { follow, job, status, failure: jobFailure } = useJob<BisectResult>("bisect-job");
  const start = async () => {
    setFailure(null);
    setSending(true);
    try {
      follow((await postJson<{ jobId: string }>(`/api/runs/${encodeURIComponent(runId)}/bisect`, { model, scorer })).jobId);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  };
  const busy = sending || status === "queued" || status === "running";
  const result = job?.status === "done" ? job.result : undefined;
  const problem = failure ?? jobFailure;
  return (
    <div className="bisect" role="group" aria-label="Bisect">
      <label>
        Scorer{" "}
        <select aria-label="Scorer" value={scorer} onChange={(event) => setScorer(event.target.value)} disabled={busy}>
          {scorers.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>{" "}
      <button type="button" onClick={() => void start()} disabled={busy || scorer === ""}>
        Find the step that flips it
      </button>{" "}
      <span role="status" aria-label="Bisect progress" className="notice">
        {busy ? `Bisecting under ${model}…` : ""}
        {result ? (
          <>
            k = {result.k}: decision {result.k} of {result.decisions} (step {result.seq}) flips it, found with {result.forks.length} forks.{" "}
            <Link href={diffHref({ a: runId, b: result.failingFork, at: result.row })}>Open the diff at k</Link>
          </>
        ) : null}
      </span>
      {problem ? (
        <p role="alert" className="error-box">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
