"use client";

/**
 * The recovery board: every unfinished run, why it waits, its lease, and what a person can do
 * (approve or deny a tool call, answer a question, resolve a halt, run recovery). A decision is
 * shown as recorded as soon as the server journaled it; the run then resumes in a server job,
 * whose progress and outcome follow it. The list refetches on every live change (/api/stream) and
 * polls while the stream is down. Controls are absent when the server is read-only (the API
 * refuses them too).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { BoardEntry, BoardView } from "@/lib/recovery/board";
import { formatTime } from "@/lib/inspect/view";
import { getJson } from "../api";
import { runHref } from "../links";
import { useLiveChanges } from "../use-live";
import { AnswerForm, DecisionButtons, RecoverNow, ResolveForm, type ActionResult } from "./board-actions";
import { ResumeProgress } from "./resume-progress";

const POLL_MS = 3_000;
export const BOARD_KEY = ["recovery-board"];

function Lease({ lease }: { lease: BoardEntry["lease"] }) {
  if (!lease) return <span className="muted">none</span>;
  return (
    <>
      <span className="mono">{lease.holder}</span>
      <br />
      <span className="muted">
        {lease.expired ? "expired" : "expires"} {formatTime(lease.expiresAt)}
      </span>
    </>
  );
}

interface TableProps {
  runs: BoardEntry[];
  label: string;
  readOnly: boolean;
  by: string;
  acted: (result: ActionResult) => void;
}

/** One table of runs; imported runs carry a badge and no actions (nothing drives them). */
function BoardTable({ runs, label, readOnly, by, acted }: TableProps) {
  return (
    <table className="board" aria-label={label}>
      <thead>
        <tr>
          <th>Run</th>
          <th>Status</th>
          <th>Waiting for</th>
          <th>Lease</th>
          {readOnly ? null : <th>Actions</th>}
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.runId} data-run={run.runId}>
            <td>
              <Link className="mono" href={runHref(run.runId)}>
                {run.runId}
              </Link>
              {run.origin === "import" ? <span className="badge-imported">imported</span> : null}
              <br />
              <span className="muted">
                {run.agent ?? "—"}
                {run.parentRunId ? ` · sub-agent of ${run.parentRunId}` : ""}
              </span>
            </td>
            <td>
              <span className={`status status-${run.status}`}>{run.status}</span>
            </td>
            <td>{run.waiting.text}</td>
            <td>
              <Lease lease={run.lease} />
            </td>
            {readOnly ? null : run.origin === "import" ? (
              <td className="muted">not driven</td>
            ) : (
              <td>
                {run.waiting.action === "decide" && run.pause?.runId === run.runId ? <DecisionButtons runId={run.runId} by={by} onDone={acted} /> : null}
                {run.waiting.action === "answer" && run.pause?.runId === run.runId ? <AnswerForm runId={run.runId} by={by} onDone={acted} /> : null}
                {run.waiting.action === "resolve" && run.pause?.runId === run.runId ? <ResolveForm runId={run.runId} by={by} onDone={acted} /> : null}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function RecoveryBoard({ initial, includeImported, readOnly }: { initial: BoardView; includeImported: boolean; readOnly: boolean }) {
  const client = useQueryClient();
  const [by, setBy] = useState("inspector");
  const live = useLiveChanges("/api/stream", () => void client.invalidateQueries({ queryKey: BOARD_KEY }));
  const board = useQuery({
    queryKey: [...BOARD_KEY, includeImported],
    queryFn: () => getJson<BoardView>(`/api/recovery${includeImported ? "?imported=1" : ""}`),
    initialData: initial,
    staleTime: 0,
    refetchInterval: live.connected ? false : POLL_MS,
  });
  const runs = board.data.runs.filter((run) => run.origin !== "import");
  const imported = board.data.runs.filter((run) => run.origin === "import");
  const refresh = () => void client.invalidateQueries({ queryKey: BOARD_KEY });
  const [last, setLast] = useState<ActionResult | null>(null);
  const acted = (result: ActionResult) => {
    setLast(result);
    refresh();
  };

  return (
    <>
      <h1>Recovery</h1>
      <p className="muted">
        Every unfinished run: waiting for an approval, an answer or a timer, halted on an unknown outcome, or cut off mid-drive. Recovery re-drives
        them; a pause counts as recovered (the run waits again).
      </p>
      {readOnly ? (
        <p className="notice">This inspector is read-only (BACKTRACK_READ_ONLY=1): approvals, answers and recovery are off.</p>
      ) : (
        <div className="toolbar">
          <label>
            Decided by <input type="text" value={by} onChange={(event) => setBy(event.target.value)} maxLength={120} />
          </label>
          <RecoverNow onDone={refresh} />
        </div>
      )}
      {last ? (
        <>
          <p role={last.error ? "alert" : "status"} aria-label="Last action" className={last.error ? "error-box" : "notice"}>
            {last.text}
          </p>
          {last.resume ? <ResumeProgress key={last.resume.jobId} jobId={last.resume.jobId} runId={last.resume.runId} onDone={refresh} /> : null}
        </>
      ) : null}
      {board.error ? <p className="error-box">Could not refresh the list: {board.error.message}</p> : null}
      {runs.length === 0 ? (
        <p className="empty">Nothing to recover: every run is complete.</p>
      ) : (
        <BoardTable runs={runs} label="Unfinished runs" readOnly={readOnly} by={by} acted={acted} />
      )}
      {board.data.hiddenImported > 0 ? (
        <p className="muted" aria-label="Imported runs hidden">
          {board.data.hiddenImported} unfinished imported run{board.data.hiddenImported === 1 ? " is" : "s are"} not shown: recovery leaves imported runs alone.{" "}
          <Link href="/recovery?imported=1">Show them</Link>
        </p>
      ) : null}
      {includeImported ? (
        <section aria-label="Imported runs">
          <h2>Imported runs</h2>
          <p className="muted">
            Unfinished runs imported from JSONL: no process wrote them here, so recovery does not drive them (<code>backtrack recover --include-imported</code> does).{" "}
            <Link href="/recovery">Hide them</Link>
          </p>
          {imported.length === 0 ? <p className="empty">No unfinished imported runs.</p> : <BoardTable runs={imported} label="Imported runs" readOnly={readOnly} by={by} acted={acted} />}
        </section>
      ) : null}
    </>
  );
}
