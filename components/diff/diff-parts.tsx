"use client";

/**
 * The detail panel's two diffs, rendered as text (React escapes it; nothing here is HTML, so a
 * hostile string in a model's text or a tool's output shows as the string it is):
 * - WordDiff: model text, words only A has struck through, words only B has underlined;
 * - JsonDiff: jsondiffpatch's structural delta as one line per changed path.
 */
import { useMemo } from "react";
import { jsonChanges, wordDiff, type JsonChange } from "@/lib/inspect/diff-view";

const VALUE_TEXT = 500;

function valueText(value: unknown): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return text.length > VALUE_TEXT ? `${text.slice(0, VALUE_TEXT - 1)}…` : text;
}

export function WordDiff({ a, b, label }: { a: string | undefined; b: string | undefined; label: string }) {
  const parts = useMemo(() => (a !== undefined && b !== undefined ? wordDiff(a, b) : undefined), [a, b]);
  if (a === undefined || b === undefined) {
    const only = a ?? b ?? "";
    return (
      <div className="message-text" data-testid="word-diff" aria-label={label}>
        {only || <span className="muted">(no text)</span>}
      </div>
    );
  }
  if (a === b) {
    return (
      <div className="message-text" data-testid="word-diff" aria-label={label}>
        {a ? (
          <>
            {a} <span className="muted">(the same)</span>
          </>
        ) : (
          <span className="muted">(no text on either side)</span>
        )}
      </div>
    );
  }
  if (!parts) {
    return (
      <div className="word-diff-sides" data-testid="word-diff" aria-label={label}>
        <p className="notice">Too long to diff word by word: both texts whole.</p>
        <div className="message-text">{a}</div>
        <div className="message-text">{b}</div>
      </div>
    );
  }
  return (
    <div className="message-text word-diff" data-testid="word-diff" aria-label={label}>
      {parts.map((part, index) =>
        part.change === "removed" ? (
          <del key={index} title="only in A">
            {part.text}
          </del>
        ) : part.change === "added" ? (
          <ins key={index} title="only in B">
            {part.text}
          </ins>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </div>
  );
}

const CHANGE_WORDS: Record<JsonChange["change"], string> = { added: "added in B", removed: "only in A", changed: "changed", moved: "moved" };

export function JsonDiff({ a, b, label }: { a: unknown; b: unknown; label: string }) {
  const changes = useMemo(() => jsonChanges(a, b), [a, b]);
  if (changes.length === 0) {
    return (
      <p className="json-diff muted" data-testid="json-diff" aria-label={label}>
        No differences.
      </p>
    );
  }
  return (
    <ul className="json-diff" data-testid="json-diff" aria-label={label}>
      {changes.map((change, index) => (
        <li key={index} className={`json-${change.change}`}>
          <code className="json-path">{change.path || "(whole value)"}</code> <span className="json-change">{CHANGE_WORDS[change.change]}</span>{" "}
          {change.change === "changed" ? (
            <>
              <del>{valueText(change.before)}</del> → <ins>{valueText(change.after)}</ins>
            </>
          ) : change.change === "added" ? (
            <ins>{valueText(change.after)}</ins>
          ) : change.change === "removed" ? (
            <del>{valueText(change.before)}</del>
          ) : (
            <span>
              {valueText(change.before)} {String(change.after)}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
