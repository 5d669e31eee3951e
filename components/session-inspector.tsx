"use client";

/**
 * The inspector of one session: its events on the shared timeline controls, the event at the
 * cursor, the state as of it (lib/sessions/inspector.ts) and the rebuild check. The cursor is
 * `?at=N` in the URL (nuqs): the state after the first N events; absent, the last event.
 */
import Link from "next/link";
import { debounce, useQueryState } from "nuqs";
import { useCallback, useMemo } from "react";
import { formatTime } from "@/lib/inspect/view";
import { historyTimeline, sessionStep, type SessionHistory } from "@/lib/sessions/inspector";
import type { SessionSummary } from "@/lib/sessions/types";
import type { SessionView } from "@/lib/sessions/view";
import { CopyButton } from "./copy-button";
import { HelpLine } from "./help-popover";
import { SecretKeysProvider } from "./payload-viewer";
import { SessionEventDetail } from "./session-event";
import { SessionEvents } from "./session-events";
import { SessionRebuild } from "./session-rebuild";
import { SessionState } from "./session-state";
import { sessionHref, sessionParams, sessionsHref } from "./session-urls";
import { TimelineControls, usePlayback, usePlaybackState, useTimelineKeys } from "./timeline-controls";

const URL_DELAY_MS = 200;

export interface SessionInspectorProps {
  /** At the end of the log: `state` is the rebuilt state get() serves. */
  session: Pick<SessionView, keyof SessionSummary | "initialState" | "state" | "events">;
  secretKeys: string[];
}

function clamp(at: number | null, last: number): number {
  if (at === null || !Number.isFinite(at)) return last;
  return Math.min(Math.max(Math.trunc(at), 0), last);
}

export function SessionInspector({ session, secretKeys }: SessionInspectorProps) {
  const last = session.events.length;
  const history: SessionHistory = useMemo(() => ({ initialState: session.initialState, events: session.events, state: session.state }), [session]);
  const timeline = useMemo(() => historyTimeline(history), [history]);
  // The cursor moves at once; the URL follows when the scrubbing pauses.
  const [rawAt, setRawAt] = useQueryState("at", sessionParams.at.withOptions({ history: "replace", limitUrlUpdates: debounce(URL_DELAY_MS) }));
  const at = clamp(rawAt, last);
  const onAt = useCallback((next: number) => void setRawAt(Math.max(0, Math.trunc(next))), [setRawAt]);
  const { playing, setPlaying, speed, setSpeed } = usePlaybackState();
  usePlayback(playing, speed, at, last, onAt, setPlaying);
  useTimelineKeys({ last, at, onAt, playing, onPlaying: setPlaying });

  const step = sessionStep(history, timeline, at);
  const event = step.eventIndex === undefined ? undefined : session.events[step.eventIndex];

  return (
    <SecretKeysProvider patterns={secretKeys}>
      <div className="run-header">
        <h1 className="mono">{session.id}</h1>
        <span className="top-spacer" />
        <CopyButton label="Copy link" text={() => `${window.location.origin}${sessionHref(session.id, at)}`} />
      </div>
      <ul className="run-facts">
        <li>
          app <Link href={sessionsHref({ app: session.app })}>{session.app}</Link>
        </li>
        <li>
          user <Link href={sessionsHref({ app: session.app, user: session.user })}>{session.user}</Link>
        </li>
        <li>
          <strong>{last.toLocaleString("en-US")}</strong> event{last === 1 ? "" : "s"}
        </li>
        <li>created {formatTime(session.createdAt)}</li>
        <li>updated {formatTime(session.updatedAt)}</li>
      </ul>
      <aside className="session-rule" aria-label="How session state is rebuilt">
        <HelpLine
          label="Why state is rebuilt from deltas"
          help={
            <>
              <p>
                After a restart, this session&apos;s state is whatever replaying the <code>stateDelta</code> of its stored events gives. A change written outside an event (say{" "}
                <code>session.state.discount = &quot;VIP&quot;</code> on a fetched session) would never be stored, so Backtrack refuses it (<code>ReadOnlyStateError</code>).
              </p>
              <p>Deltas hold absolute values, so a retried event changes nothing; an event id already stored is dropped.</p>
              <p>
                <code>temp:</code> keys live on the live session only and are stripped before storing; <code>app:</code> and <code>user:</code> keys are shared with the app&apos;s
                (or the user&apos;s) other sessions.
              </p>
            </>
          }
        >
          <strong>State is rebuilt only from persisted deltas.</strong>
        </HelpLine>
      </aside>
      <TimelineControls
        last={last}
        at={at}
        onAt={onAt}
        playing={playing}
        onPlaying={setPlaying}
        speed={speed}
        onSpeed={setSpeed}
        describe={(n) => (n === 0 ? `step 0 of ${last}: initial state` : `step ${n} of ${last}: event ${session.events[n - 1]?.id ?? n}`)}
      />
      <div className="inspector session-inspector">
        <SessionEvents events={session.events} at={at} onAt={onAt} />
        <SessionEventDetail sessionId={session.id} event={event} count={last} />
        <div className="side">
          <SessionState sessionId={session.id} rows={step.rows} at={step.at} eventId={event?.id} />
          <SessionRebuild id={session.id} />
        </div>
      </div>
    </SecretKeysProvider>
  );
}
