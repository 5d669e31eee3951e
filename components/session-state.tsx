"use client";

/**
 * The state as of event N (lib/sessions/inspector.ts stateRows): the persisted keys with their
 * scope, the keys event N changed highlighted (before → after), and the temp: keys it set on the
 * live session only, which were never stored.
 */
import type { KeyChange } from "@/lib/sessions/timeline";
import type { StateRow, StateRows } from "@/lib/sessions/inspector";
import { pointerOf } from "@/lib/inspect/redact";
import { RevealProvider, sessionReveal } from "./payload-viewer";
import { SessionValue, valueText } from "./session-value";

function scopeText(row: StateRow): string {
  if (row.scope === "app") return "shared: app";
  if (row.scope === "user") return "shared: user";
  return row.scope;
}

function scopeTitle(row: StateRow): string {
  if (row.scope === "app") return "app: keys are shared by every session of the app";
  if (row.scope === "user") return "user: keys are shared by every session of this user in the app";
  return "this session only";
}

function changeText(change: KeyChange): string {
  if (change.kind === "delete") return `deleted: ${valueText(change.before)} → absent`;
  return `changed: ${valueText(change.before)} → ${valueText(change.after)}`;
}

export function SessionState({ sessionId, rows, at, eventId }: { sessionId: string; rows: StateRows; at: number; eventId: string | undefined }) {
  const title = at === 0 ? "State before the first event" : `State after event ${at}${eventId ? ` (${eventId})` : ""}`;
  return (
    <section className="panel session-state" aria-labelledby="session-state-heading" data-testid="session-state">
      <h2 id="session-state-heading">{title}</h2>
      <p className="notice">
        {at === 0
          ? "The initial state given to create(): what the events' deltas replay onto."
          : "What a rebuild from storage has: the initial state plus the persisted deltas of the first " + at + " event" + (at === 1 ? "." : "s.")}
      </p>
      {rows.persisted.length === 0 ? (
        <p className="muted">Empty.</p>
      ) : (
        <RevealProvider source={sessionReveal(sessionId, at)}>
          <table className="state-table" aria-label="Persisted state">
            <thead>
              <tr>
                <th>Key</th>
                <th>Value</th>
                <th>Scope</th>
                <th>This event</th>
              </tr>
            </thead>
            <tbody>
              {rows.persisted.map((row) => (
                <tr key={row.key} className={row.change ? "changed" : undefined} data-changed={row.change ? "" : undefined} data-key={row.key}>
                  <th scope="row" className="mono">
                    {row.key}
                  </th>
                  <td>
                    {row.value === undefined ? (
                      <span className="muted">deleted</span>
                    ) : (
                      <SessionValue value={row.value} label={row.key} pointer={`/state${pointerOf([row.key])}`} />
                    )}
                  </td>
                  <td>
                    <span className={`scope scope-${row.scope}`} title={scopeTitle(row)}>
                      {scopeText(row)}
                    </span>
                  </td>
                  <td className="mono">{row.change ? changeText(row.change) : <span className="muted">unchanged</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </RevealProvider>
      )}
      {rows.temp.length > 0 ? (
        <div className="temp-keys" data-testid="temp-keys">
          <h3>Never persisted</h3>
          <ul aria-label="Never persisted">
            {rows.temp.map((row) => (
              <li key={row.key} data-key={row.key}>
                <span className="mono">{row.key}</span> <span className="scope scope-temp">temp: never persisted</span>{" "}
                <span className="muted">
                  applied to the live session only and stripped before the event was stored{row.change?.kind === "unrecorded" ? " (only its name was kept)" : ""}; a rebuild never
                  has it.
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
