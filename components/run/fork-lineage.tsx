"use client";

/**
 * A run's lineage on its page: "forked from <run> at step N" (a link to that step) on a fork, and
 * the list of a run's own forks (GET /api/runs?forkOf=), newest first.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { RunPage, RunSummary } from "@/lib/journal/types";
import { getJson } from "../api";
import { diffHref, runHref } from "../links";

const SHOWN_FORKS = 20;

export function ForkLineage({ run }: { run: RunSummary }) {
  const forks = useQuery({
    queryKey: ["forks-of", run.runId, run.updatedAt],
    queryFn: () => getJson<RunPage>(`/api/runs?forkOf=${encodeURIComponent(run.runId)}&limit=${SHOWN_FORKS}`),
    staleTime: 5_000,
  });
  const list = forks.data?.runs ?? [];
  const from = run.forkedFrom;
  if (!from && list.length === 0) return null;
  return (
    <div className="fork-lineage">
      {from ? (
        <p className="forked-from" data-testid="forked-from">
          Forked from <Link href={runHref(from.runId, from.at)}>{from.runId}</Link> at step {from.at} · <Link href={diffHref({ a: from.runId, b: run.runId })}>diff with it</Link>
        </p>
      ) : null}
      {list.length > 0 ? (
        <nav aria-label="Forks of this run" className="fork-list">
          Forks:{" "}
          {list.map((fork, index) => (
            <span key={fork.runId}>
              {index > 0 ? ", " : ""}
              <Link href={runHref(fork.runId)}>{fork.runId}</Link>
              {fork.forkedFrom ? (
                <span className="muted">
                  {" "}
                  (step {fork.forkedFrom.at}, {fork.status})
                </span>
              ) : null}
            </span>
          ))}
          {forks.data?.nextCursor ? (
            <>
              {" "}
              · <Link href={`/runs?forkOf=${encodeURIComponent(run.runId)}`}>all forks</Link>
            </>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
