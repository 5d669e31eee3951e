"use client";

/**
 * A batch's page: a live table of its pinned runs (polled while the batch runs) with each status,
 * its first divergence in words and a link to the diff at that row; filters by status (in the
 * URL, `?status=changed`), "Copy as Markdown" (the pull-request summary, links absolute to this
 * site), and what changed since the previous batch: newly changed, fixed, still changed.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { formatTime } from "@/lib/inspect/view";
import { batchMarkdown, resultSummary } from "@/lib/suites/report";
import { RESULT_STATUSES, type ResultStatus } from "@/lib/suites/types";
import type { BatchView } from "@/lib/suites/view";
import { getJson } from "../api";
import { CopyButton } from "../copy-button";
import { runHref } from "../links";
import { batchHref } from "./suite-links";

const POLL_MS = 1_000;

function RunList({ label, runIds }: { label: string; runIds: string[] }) {
  return (
    <li aria-label={label}>
      <strong>{label}</strong> ({runIds.length}):{" "}
      {runIds.length === 0 ? <span className="muted">none</span> : runIds.map((runId) => <span key={runId} className="mono">{`${runId} `}</span>)}
    </li>
  );
}

function Comparison({ view }: { view: BatchView }) {
  if (!view.previous) return <p className="notice">No earlier batch of this suite to compare with.</p>;
  const { batch, comparison } = view.previous;
  return (
    <section aria-label="Compared with the previous batch">
      <h2>
        Since the previous batch (<Link href={batchHref(batch.suite, batch.batchId)}>{`${batch.model}, ${formatTime(batch.startedAt)}`}</Link>)
      </h2>
      <ul>
        <RunList label="Newly changed" runIds={comparison.newlyChanged} />
        <RunList label="Fixed" runIds={comparison.fixed} />
        <RunList label="Still changed" runIds={comparison.stillChanged} />
      </ul>
    </section>
  );
}

export function BatchPage({ initial }: { initial: BatchView }) {
  const { suite, batchId } = initial.batch;
  const router = useRouter();
  const pathname = usePathname();
  const filter = useSearchParams().get("status");
  const query = useQuery({
    queryKey: ["suite-batch", suite, batchId],
    queryFn: () => getJson<BatchView>(`/api/suites/${encodeURIComponent(suite)}/batches/${encodeURIComponent(batchId)}`),
    initialData: initial,
    staleTime: 0,
    refetchInterval: (state) => (state.state.data?.batch.status === "running" ? POLL_MS : false),
  });
  const view = query.data;
  const { batch, counts } = view;
  const shown = filter ? view.results.filter((result) => result.status === filter) : view.results;
  const setFilter = (status: ResultStatus | null) => router.replace(status ? `${pathname}?status=${status}` : pathname, { scroll: false });
  return (
    <div className="suites">
      <h1>
        Suite <span className="mono">{suite}</span> under <span className="mono">{batch.model}</span>
        {batch.stripMemory ? " (memory stripped)" : ""}
      </h1>
      <p aria-label="Batch summary" role="status">
        {batch.status === "running"
          ? `running: ${batch.total - counts.pending} of ${batch.total} done · `
          : batch.status === "failed"
            ? `the batch failed: ${batch.error ?? ""} · `
            : ""}
        {counts.pass} passed · {counts.changed} changed · {counts.failed} failed · {counts.error} errors · scorer {batch.scorer} · started {formatTime(batch.startedAt)}
      </p>
      <div className="toolbar" role="group" aria-label="Filter by status">
        <button type="button" aria-pressed={filter === null} onClick={() => setFilter(null)}>
          All ({view.results.length})
        </button>
        {RESULT_STATUSES.map((status) => (
          <button key={status} type="button" aria-pressed={filter === status} onClick={() => setFilter(status)}>
            {status} ({counts[status]})
          </button>
        ))}
        <CopyButton label="Copy as Markdown" text={() => batchMarkdown(batch, view.results, counts, window.location.origin)} />
      </div>
      <table className="board" aria-label="Pinned runs">
        <thead>
          <tr>
            <th>Run</th>
            <th>Status</th>
            <th>First divergence</th>
            <th>Diff</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((result) => (
            <tr key={result.runId} data-run={result.runId}>
              <td>
                <Link className="mono" href={runHref(result.runId)}>
                  {result.runId}
                </Link>
              </td>
              <td>
                <span className={`status suite-${result.status}`}>{result.status}</span>
              </td>
              <td>{result.status === "pass" ? <span className="muted">same decisions</span> : resultSummary(result)}</td>
              <td>{result.diffLink ? <Link href={result.diffLink}>{result.divergentAt === null ? "diff" : `diff at row ${result.divergentAt}`}</Link> : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Comparison view={view} />
    </div>
  );
}
