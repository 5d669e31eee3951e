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
import type { BoardEntry } from "@/lib/recovery/board";
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

/**
 * The board's unfinished runs, refetched on every live change (polled while the stream is down),
 * and the last action taken on it; `acted` records an action and refreshes the list.
 */
function useRecoveryBoard(initial: BoardEntry[]) {
  const client = useQueryClient();
  const live = useLiveChanges("/api/stream", () => void client.invalidateQueries({ queryKey: BOARD_KEY }));
  const board = useQuery({
    queryKey: BOARD_KEY,
    queryFn: async () => (await getJson<{ runs: BoardEntry[] }>("/api/recovery")).runs,
    initialData: initial,
    staleTime: 0,
    refetchInterval: live.connected ? false : POLL_MS,
  });
  const refresh = () => void client.invalidateQueries({ queryKey: BOARD_KEY });
  const [last, setLast] = useState<ActionResult | null>(null);
  const acted = (result: ActionResult) => {
    setLast(result);
    refresh();
  };
  return { runs: board.data, error: board.error, refresh, last, acted };
}

/** One unfinished run, and the decision it waits for when it is the run that paused (not a parent). */
function BoardRow({ run, readOnly, by, onDone }: { run: BoardEntry; readOnly: boolean; by: string; onDone: (result: ActionResult) => void }) {
  const ownPause = run.pause?.runId === run.runId;
  return (
    <tr data-run={run.runId}>
      <td>
        <Link className="mono" href={runHref(run.runId)}>
          {run.runId}
        </Link>
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
      {readOnly ? null : (
        <td>
          {run.waiting.action === "decide" && ownPause ? <DecisionButtons runId={run.runId} by={by} onDone={onDone} /> : null}
          {run.waiting.action === "answer" && ownPause ? <AnswerForm runId={run.runId} by={by} onDone={onDone} /> : null}
          {run.waiting.action === "resolve" && ownPause ? <ResolveForm runId={run.runId} by={by} onDone={onDone} /> : null}
        </td>
      )}
    </tr>
  );
}

export function RecoveryBoard({ initial, readOnly }: { initial: BoardEntry[]; readOnly: boolean }) {
  const [by, setBy] = useState("inspector");
  const { runs, error, refresh, last, acted } = useRecoveryBoard(initial);

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
      {error ? <p className="error-box">Could not refresh the list: {error.message}</p> : null}
      {runs.length === 0 ? (
        <p className="empty">Nothing to recover: every run is complete.</p>
      ) : (
        <table className="board" aria-label="Unfinished runs">
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
              <BoardRow key={run.runId} run={run} readOnly={readOnly} by={by} onDone={acted} />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
