"use client";

/**
 * The recovery board: every unfinished run, why it waits, its lease, and what a person can do
 * (approve or deny a tool call, answer a question, resolve a halt, run recovery). A decision is
 * shown as recorded as soon as the server journaled it; the run then resumes in a server job,
 * whose progress and outcome follow it. The list refetches on every live change (/api/stream) and
 * polls while the stream is down. Controls are absent when the server is read-only (the API
 * refuses them too). Imported runs (which recovery does not drive) are counted, and listed in a
 * table of their own, badged, only when asked (`?imported=1`).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import type { BoardEntry, BoardView } from "@/lib/recovery/board";
import { formatTime } from "@/lib/inspect/view";
import { getJson } from "../api";
import { HelpLine } from "../help-popover";
import { runHref } from "../links";
import { useLiveChanges } from "../use-live";
import { AnswerForm, DecisionButtons, RecoverNow, ResolveForm, type ActionResult } from "./board-actions";
import { ResumeProgress } from "./resume-progress";
import { WorkersTable } from "./workers-table";

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
function useRecoveryBoard(initial: BoardView, includeImported: boolean) {
  const client = useQueryClient();
  const live = useLiveChanges("/api/stream", () => void client.invalidateQueries({ queryKey: BOARD_KEY }));
  const board = useQuery({
    queryKey: [...BOARD_KEY, includeImported],
    queryFn: () => getJson<BoardView>(`/api/recovery${includeImported ? "?imported=1" : ""}`),
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
  return { view: board.data, error: board.error, refresh, last, acted, connected: live.connected };
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
          {run.waiting.action === "decide" && ownPause ? <DecisionButtons runId={run.runId} by={by} onDone={onDone} /> : null}
          {run.waiting.action === "answer" && ownPause ? <AnswerForm runId={run.runId} by={by} onDone={onDone} /> : null}
          {run.waiting.action === "resolve" && ownPause ? <ResolveForm runId={run.runId} by={by} onDone={onDone} /> : null}
          {run.waiting.action === "effect" && ownPause ? <ResolveForm runId={run.runId} by={by} onDone={onDone} effect /> : null}
        </td>
      )}
    </tr>
  );
}

function BoardTable({ runs, label, readOnly, by, onDone }: { runs: BoardEntry[]; label: string; readOnly: boolean; by: string; onDone: (result: ActionResult) => void }) {
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
          <BoardRow key={run.runId} run={run} readOnly={readOnly} by={by} onDone={onDone} />
        ))}
      </tbody>
    </table>
  );
}

/** How many imported runs are left out (with a link to show them), or the table of them when shown. */
function ImportedRuns({ view, includeImported, table }: { view: BoardView; includeImported: boolean; table: (runs: BoardEntry[]) => ReactNode }) {
  if (!includeImported) {
    if (view.hiddenImported === 0) return null;
    return (
      <p className="muted" aria-label="Imported runs hidden">
        {view.hiddenImported} unfinished imported run{view.hiddenImported === 1 ? " is" : "s are"} not shown: recovery leaves imported runs alone.{" "}
        <Link href="/recovery?imported=1">Show them</Link>
      </p>
    );
  }
  const imported = view.runs.filter((run) => run.origin === "import");
  return (
    <section aria-label="Imported runs">
      <h2>Imported runs</h2>
      <p className="muted">
        Unfinished runs imported from JSONL: no process wrote them here, so recovery does not drive them (<code>backtrack recover --include-imported</code> does).{" "}
        <Link href="/recovery">Hide them</Link>
      </p>
      {imported.length === 0 ? <p className="empty">No unfinished imported runs.</p> : table(imported)}
    </section>
  );
}

export function RecoveryBoard({ initial, includeImported, readOnly }: { initial: BoardView; includeImported: boolean; readOnly: boolean }) {
  const [by, setBy] = useState("inspector");
  const { view, error, refresh, last, acted, connected } = useRecoveryBoard(initial, includeImported);
  const runs = view.runs.filter((run) => run.origin !== "import");
  const table = (shown: BoardEntry[], label = "Imported runs") => <BoardTable runs={shown} label={label} readOnly={readOnly} by={by} onDone={acted} />;

  return (
    <>
      <h1>Recovery</h1>
      <HelpLine
        className="muted"
        label="About recovery"
        help={
          <>
            <p>A run is unfinished when it waits for an approval, an answer or a timer, is halted on an unknown outcome, or was cut off mid-drive.</p>
            <p>
              Recovery re-drives them; a pause counts as recovered (the run waits again). A decision is journaled before the board answers, then the run resumes in a background
              job.
            </p>
          </>
        }
      >
        Every unfinished run, what it waits for, and how to unblock it.
      </HelpLine>
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
      {runs.length === 0 ? <p className="empty">Nothing to recover: every run is complete.</p> : table(runs, "Unfinished runs")}
      <ImportedRuns view={view} includeImported={includeImported} table={table} />
      <WorkersTable pollMs={connected ? 5_000 : POLL_MS} />
    </>
  );
}
