"use client";

/**
 * A JSON payload, pretty-printed as a tree: objects and arrays collapse (native <details>, so
 * keyboard and screen readers work), long strings are cut with "Show all", long arrays show
 * their first items with "Show more", and values under secret-looking keys are hidden until
 * revealed (lib/inspect/redact.ts; the patterns come from BACKTRACK_REDACT_KEYS). Text is
 * rendered as text, never as HTML. Reusable by any page that shows recorded data.
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from "react";
import { DEFAULT_SECRET_KEYS, secretKeyMatcher } from "@/lib/inspect/redact";

const LONG_STRING = 400;
const ITEMS_SHOWN = 100;

/** The secret-key matcher in effect (for views that excerpt payloads, see redactValue). */
export function useSecretKeys(): (key: string) => boolean {
  return useContext(SecretKeys);
}

const SecretKeys = createContext<(key: string) => boolean>(secretKeyMatcher(DEFAULT_SECRET_KEYS));

/** Sets the secret-key patterns for the payload viewers below it. */
export function SecretKeysProvider({ patterns, children }: { patterns: readonly string[]; children: ReactNode }) {
  const matcher = useMemo(() => secretKeyMatcher(patterns), [patterns]);
  return <SecretKeys.Provider value={matcher}>{children}</SecretKeys.Provider>;
}

export function PayloadViewer({ value, label, openDepth = 2 }: { value: unknown; label: string; openDepth?: number }) {
  return (
    <div className="payload" role="group" aria-label={label}>
      <Value value={value} depth={0} openDepth={openDepth} path={label} />
    </div>
  );
}

function Value({ value, depth, openDepth, path }: { value: unknown; depth: number; openDepth: number; path: string }) {
  if (value === null || value === undefined) return <span className="null">null</span>;
  if (typeof value === "string") return <LongString text={value} />;
  if (typeof value === "number") return <span className="number">{String(value)}</span>;
  if (typeof value === "boolean") return <span className="boolean">{String(value)}</span>;
  if (Array.isArray(value)) return <Branch entries={value.map((item, index) => [String(index), item])} array depth={depth} openDepth={openDepth} path={path} />;
  if (typeof value === "object") return <Branch entries={Object.entries(value as Record<string, unknown>)} array={false} depth={depth} openDepth={openDepth} path={path} />;
  return <span>{String(value)}</span>;
}

function LongString({ text }: { text: string }) {
  const [whole, setWhole] = useState(false);
  if (text.length <= LONG_STRING || whole) return <span className="string">{JSON.stringify(text)}</span>;
  return (
    <span>
      <span className="string">{JSON.stringify(text.slice(0, LONG_STRING)).slice(0, -1)}…&quot;</span>
      <button type="button" onClick={() => setWhole(true)}>
        Show all ({text.length.toLocaleString("en-US")} characters)
      </button>
    </span>
  );
}

function Branch({ entries, array, depth, openDepth, path }: { entries: Array<[string, unknown]>; array: boolean; depth: number; openDepth: number; path: string }) {
  const [open, setOpen] = useState(depth < openDepth);
  const [shown, setShown] = useState(ITEMS_SHOWN);
  const secret = useContext(SecretKeys);
  if (entries.length === 0) return <span className="null">{array ? "[]" : "{}"}</span>;
  const summary = array ? `[ ${entries.length} item${entries.length === 1 ? "" : "s"} ]` : `{ ${entries.length} key${entries.length === 1 ? "" : "s"} }`;
  return (
    <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{summary}</summary>
      {open ? (
        <ul>
          {entries.slice(0, shown).map(([key, item]) => (
            <li key={key}>
              <span className="key">{array ? key : JSON.stringify(key)}</span>:{" "}
              {!array && secret(key) && item !== null && item !== undefined ? (
                <Redacted name={key}>
                  <Value value={item} depth={depth + 1} openDepth={openDepth} path={`${path}.${key}`} />
                </Redacted>
              ) : (
                <Value value={item} depth={depth + 1} openDepth={openDepth} path={`${path}.${key}`} />
              )}
            </li>
          ))}
          {entries.length > shown ? (
            <li>
              <button type="button" onClick={() => setShown((count) => count + ITEMS_SHOWN * 5)}>
                Show more ({(entries.length - shown).toLocaleString("en-US")} hidden)
              </button>
            </li>
          ) : null}
        </ul>
      ) : null}
    </details>
  );
}

function Redacted({ name, children }: { name: string; children: ReactNode }) {
  const [revealed, setRevealed] = useState(false);
  if (revealed) return <>{children}</>;
  return (
    <span>
      <span className="redacted">•••••• redacted</span>
      <button type="button" aria-label={`Reveal ${name}`} onClick={() => setRevealed(true)}>
        Reveal
      </button>
    </span>
  );
}
