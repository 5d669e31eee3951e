"use client";

/**
 * The fleet on /recovery: every process that runs jobs on this database (`backtrack worker`, an
 * inspector's in-process worker), its last heartbeat, and what it holds now (running jobs and run
 * leases). Refetched with the board; a worker whose heartbeat is stale stopped without saying so:
 * its jobs run again elsewhere once they are stale too, its leases are taken over when they expire.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { WorkerView } from "@/lib/jobs/workers";
import { formatTime } from "@/lib/inspect/view";
import { getJson } from "../api";
import { runHref } from "../links";

export const WORKERS_KEY = ["recovery-board", "workers"];

function Holdings({ worker }: { worker: WorkerView }) {
  if (worker.jobs.length === 0 && worker.leases.length === 0) return <span className="muted">nothing</span>;
  return (
    <ul className="plain">
      {worker.jobs.map((job) => (
        <li key={job.jobId}>
          job <span className="mono">{job.jobId}</span> ({job.kind}
          {job.attempts > 1 ? `, attempt ${job.attempts}` : ""})
        </li>
      ))}
      {worker.leases.map((lease) => (
        <li key={lease.runId}>
          run{" "}
          <Link className="mono" href={runHref(lease.runId)}>
            {lease.runId}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function WorkersTable({ pollMs }: { pollMs: number | false }) {
  const workers = useQuery({
    queryKey: WORKERS_KEY,
    queryFn: () => getJson<{ workers: WorkerView[] }>("/api/workers"),
    refetchInterval: pollMs,
  });
  const list = workers.data?.workers ?? [];
  return (
    <section aria-label="Workers">
      <h2>Workers</h2>
      {workers.error ? <p className="error-box">Could not list the workers: {workers.error.message}</p> : null}
      {list.length === 0 ? (
        <p className="empty">
          No worker is running: queued jobs wait for one (<code>backtrack worker</code>, or <code>backtrack start</code> without <code>--no-worker</code>).
        </p>
      ) : (
        <table className="board" aria-label="Workers">
          <thead>
            <tr>
              <th>Worker</th>
              <th>Kinds</th>
              <th>Last heartbeat</th>
              <th>Holds</th>
            </tr>
          </thead>
          <tbody>
            {list.map((worker) => (
              <tr key={worker.workerId} data-worker={worker.workerId}>
                <td>
                  <span className="mono">{worker.workerId}</span>
                  <br />
                  <span className="muted">
                    {worker.role === "worker" ? "backtrack worker" : "inspector"} · {worker.concurrency} at once
                  </span>
                </td>
                <td>{worker.kinds.join(", ")}</td>
                <td>
                  {formatTime(worker.heartbeatAt)}
                  {worker.stale ? <span className="status status-failed"> stopped responding</span> : null}
                </td>
                <td>
                  <Holdings worker={worker} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
