"use client";

/**
 * "Rebuild check": asks the server to read the session afresh, replay its stored deltas and compare
 * the result with the stored snapshots (GET /api/sessions/{id}/rebuild), then lists every key, the
 * divergences first, or says that the replay matches.
 */
import { useMutation } from "@tanstack/react-query";
import { formatTime } from "@/lib/inspect/view";
import type { RebuildReport } from "@/lib/sessions/view";
import { valueText } from "./session-value";
import { HelpLine } from "./help-popover";

async function check(id: string): Promise<RebuildReport> {
  const response = await fetch(`/api/sessions/${encodeURIComponent(id)}/rebuild`, { cache: "no-store" });
  const body = (await response.json()) as RebuildReport & { error?: { message: string } };
  if (!response.ok) throw new Error(body.error?.message ?? `the rebuild check answered ${response.status}`);
  return body;
}

function Verdict({ report }: { report: RebuildReport }) {
  const { rebuild } = report;
  if (rebuild.ok) {
    return (
      <p className="rebuild-verdict ok">
        <strong>Matches.</strong> Replaying the {rebuild.eventsFound} stored event{rebuild.eventsFound === 1 ? "" : "s"} gives exactly the stored state.
      </p>
    );
  }
  const count = rebuild.differences.length + rebuild.sharedLogGaps.length + (rebuild.eventsFound === rebuild.revision ? 0 : 1);
  return (
    <p className="rebuild-verdict bad">
      <strong>
        Diverges: {count} difference{count === 1 ? "" : "s"}.
      </strong>{" "}
      The stored state is not what replaying the stored events gives; a restart would serve the replay.
    </p>
  );
}

export function SessionRebuild({ id }: { id: string }) {
  const run = useMutation({ mutationFn: () => check(id) });
  const report = run.data;
  return (
    <section className="panel rebuild" aria-labelledby="rebuild-heading" data-testid="rebuild">
      <h2 id="rebuild-heading">Rebuild check</h2>
      <HelpLine
        className="notice"
        label="What the rebuild check does"
        help={
          <p>
            The server reads the session afresh, replays its stored deltas in a new context, and compares the result with the state snapshots stored beside them. It changes
            nothing.
          </p>
        }
      >
        Replays the stored deltas and compares them with the stored snapshots.
      </HelpLine>
      <div className="toolbar">
        <button type="button" onClick={() => run.mutate()} disabled={run.isPending}>
          Rebuild check
        </button>
        <span className="notice">{report ? `checked ${formatTime(report.checkedAt)}` : ""}</span>
      </div>
      <div role="status" aria-live="polite">
        {run.isPending ? <p className="muted">Replaying…</p> : null}
        {run.error ? <p className="status-failed">The check could not run: {run.error.message}</p> : null}
        {report && !run.isPending ? <Verdict report={report} /> : null}
      </div>
      {report && !run.isPending ? (
        <>
          {report.rebuild.eventsFound !== report.rebuild.revision ? (
            <p className="status-failed">
              Lost events: the session row says {report.rebuild.revision} events were stored, but {report.rebuild.eventsFound} were found.
            </p>
          ) : null}
          {report.rebuild.sharedLogGaps.map((gap) => (
            <p key={gap.scope} className="status-failed">
              The {gap.scope}: change log has {gap.changesFound} of its {gap.revision} changes.
            </p>
          ))}
          {report.rows.length > 0 ? (
            <table className="state-table" aria-label="Rebuild comparison">
              <thead>
                <tr>
                  <th>Key</th>
                  <th>Stored snapshot</th>
                  <th>Replay gives</th>
                  <th>Result</th>
                </tr>
              </thead>
              <tbody>
                {report.rows.map((row) => (
                  <tr key={`${row.scope}:${row.key}`} className={row.matches ? undefined : "diverged"} data-key={row.key}>
                    <th scope="row" className="mono">
                      {row.key}
                    </th>
                    <td className="mono">{valueText(row.snapshot)}</td>
                    <td className="mono">{valueText(row.replayed)}</td>
                    <td>{row.matches ? <span className="status-complete">same</span> : <strong className="status-failed">diverges</strong>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="muted">The state is empty on both sides.</p>
          )}
        </>
      ) : null}
    </section>
  );
}
