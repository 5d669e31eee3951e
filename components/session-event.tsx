"use client";

/** The event at the cursor: who wrote it, in which invocation, its content, and the state delta it stored. */
import { formatTime } from "@/lib/inspect/view";
import type { SessionEvent } from "@/lib/sessions/types";
import { PayloadViewer, RevealProvider, sessionReveal } from "./payload-viewer";

/** The text of ADK content (`{ role, parts: [{ text }] }`), or undefined for other shapes. */
function contentText(content: SessionEvent["content"]): string | undefined {
  if (content === null || typeof content !== "object" || Array.isArray(content)) return undefined;
  const parts = content.parts;
  if (!Array.isArray(parts)) return undefined;
  const texts = parts.flatMap((part) => (part !== null && typeof part === "object" && !Array.isArray(part) && typeof part.text === "string" ? [part.text] : []));
  return texts.length > 0 ? texts.join("\n") : undefined;
}

export function SessionEventDetail({ sessionId, event, count }: { sessionId: string; event: SessionEvent | undefined; count: number }) {
  if (!event) {
    return (
      <section className="panel detail" aria-labelledby="session-event-heading">
        <h2 id="session-event-heading">Before the first event</h2>
        <p className="muted">{count === 0 ? "This session has no events yet." : `Step forward to see the first of its ${count} events.`}</p>
      </section>
    );
  }
  const text = contentText(event.content);
  const delta = event.actions.stateDelta;
  const tempKeys = event.actions.tempKeys ?? [];
  return (
    <section className="panel detail" aria-labelledby="session-event-heading" data-testid="session-event">
      <h2 id="session-event-heading">
        Event {event.index + 1} of {count}: <span className="mono">{event.id}</span>
      </h2>
      <dl>
        <dt>Author</dt>
        <dd>{event.author}</dd>
        <dt>Invocation</dt>
        <dd className="mono">{event.invocationId || "—"}</dd>
        <dt>Time</dt>
        <dd>{formatTime(event.timestamp)}</dd>
      </dl>
      <RevealProvider source={sessionReveal(sessionId, event.index + 1)}>
        <h3>Content</h3>
        {text !== undefined ? <div className="message-text">{text}</div> : null}
        {event.content === null ? (
          <p className="muted">None.</p>
        ) : (
          <PayloadViewer value={event.content} label="Content" openDepth={text !== undefined ? 0 : 2} pointer="/event/content" />
        )}
        <h3>State delta (persisted)</h3>
        {Object.keys(delta).length === 0 ? (
          <p className="muted">None: this event changed no persisted key.</p>
        ) : (
          <PayloadViewer value={delta} label="State delta" pointer="/event/actions/stateDelta" />
        )}
      </RevealProvider>
      {tempKeys.length > 0 ? (
        <p className="notice">
          Also set on the live session, never stored:{" "}
          {tempKeys.map((key) => (
            <code key={key}>{key}</code>
          ))}{" "}
          (temp: keys are stripped before the event is stored; only their names are kept).
        </p>
      ) : null}
    </section>
  );
}
