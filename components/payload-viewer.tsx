"use client";

/**
 * A JSON payload, pretty-printed as a tree: objects and arrays collapse (native <details>, so
 * keyboard and screen readers work), long strings are cut with "Show all", long arrays show
 * their first items with "Show more". Secrets arrive redacted by the server (lib/inspect/redact.ts;
 * the patterns come from BACKTRACK_REDACT_KEYS): a redacted value offers "Reveal", which asks the
 * server for that one value (`<endpoint>?path=`, e.g. GET /api/runs/{id}/records/{seq}/reveal) when
 * the viewer knows what it shows (RevealSource) and where the value sits in it (`pointer`). Text is
 * rendered as text, never as HTML. Reusable by any page that shows recorded data.
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from "react";
import { DEFAULT_SECRET_KEYS, isRedacted, pointerOf, REDACTED, secretKeyMatcher } from "@/lib/inspect/redact";
import { getJson } from "./api";

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

/**
 * What a viewer shows, for "Reveal": the endpoint that answers `?path=<JSON Pointer>` with
 * `{ value }` (null: the values are shown as redacted, without the button).
 */
export interface RevealSource {
  endpoint: string;
}

/** A run's record: pointers go into its payload. */
export function recordReveal(runId: string, seq: number): RevealSource {
  return { endpoint: `/api/runs/${encodeURIComponent(runId)}/records/${seq}/reveal` };
}

/** A session after its first `at` events: pointers start with /event (the event at `at`) or /state. */
export function sessionReveal(sessionId: string, at: number): RevealSource {
  return { endpoint: `/api/sessions/${encodeURIComponent(sessionId)}/reveal?at=${at}` };
}

const Reveal = createContext<RevealSource | null>(null);

export function RevealProvider({ source, children }: { source: RevealSource | null; children: ReactNode }) {
  return <Reveal.Provider value={source}>{children}</Reveal.Provider>;
}

/**
 * `pointer`: where `value` sits in the record's payload (a JSON Pointer such as "/args"); without
 * it, redacted values have no "Reveal".
 */
export function PayloadViewer({ value, label, openDepth = 2, pointer }: { value: unknown; label: string; openDepth?: number; pointer?: string }) {
  return (
    <div className="payload" role="group" aria-label={label}>
      <Value value={value} depth={0} openDepth={openDepth} path={label} pointer={pointer} name={label} />
    </div>
  );
}

function child(pointer: string | undefined, key: string): string | undefined {
  return pointer === undefined ? undefined : `${pointer}${pointerOf([key])}`;
}

function Value({ value, depth, openDepth, path, pointer, name }: { value: unknown; depth: number; openDepth: number; path: string; pointer: string | undefined; name: string }) {
  if (value === null || value === undefined) return <span className="null">null</span>;
  if (typeof value === "string")
    return isRedacted(value) ? <Redacted text={value} name={name} pointer={pointer} depth={depth} openDepth={openDepth} path={path} /> : <LongString text={value} />;
  if (typeof value === "number") return <span className="number">{String(value)}</span>;
  if (typeof value === "boolean") return <span className="boolean">{String(value)}</span>;
  if (Array.isArray(value)) return <Branch entries={value.map((item, index) => [String(index), item])} array depth={depth} openDepth={openDepth} path={path} pointer={pointer} />;
  if (typeof value === "object")
    return <Branch entries={Object.entries(value as Record<string, unknown>)} array={false} depth={depth} openDepth={openDepth} path={path} pointer={pointer} />;
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

function Branch({
  entries,
  array,
  depth,
  openDepth,
  path,
  pointer,
}: {
  entries: Array<[string, unknown]>;
  array: boolean;
  depth: number;
  openDepth: number;
  path: string;
  pointer: string | undefined;
}) {
  const [open, setOpen] = useState(depth < openDepth);
  const [shown, setShown] = useState(ITEMS_SHOWN);
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
              <Value value={item} depth={depth + 1} openDepth={openDepth} path={`${path}.${key}`} pointer={child(pointer, key)} name={key} />
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

/** A value the server redacted (whole, or secrets inside a string), with "Reveal" when its record and place are known. */
function Redacted({ text, name, pointer, depth, openDepth, path }: { text: string; name: string; pointer: string | undefined; depth: number; openDepth: number; path: string }) {
  const source = useContext(Reveal);
  const [revealed, setRevealed] = useState<{ value: unknown } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  if (revealed) return <Value value={revealed.value} depth={depth} openDepth={openDepth} path={path} pointer={undefined} name={name} />;
  // The whole value was replaced (REDACTED, or "REDACTED n" in a diff), not secrets inside a string.
  const whole = text === REDACTED || /^•+ \d+$/.test(text);
  const reveal = async () => {
    if (!source || pointer === undefined) return;
    try {
      const url = `${source.endpoint}${source.endpoint.includes("?") ? "&" : "?"}path=${encodeURIComponent(pointer)}`;
      setRevealed({ value: (await getJson<{ value: unknown }>(url)).value });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <span>
      <span className="redacted" title="Hidden by the server: secrets are redacted by default">
        {whole ? "•••••• redacted" : JSON.stringify(text)}
      </span>
      {source && pointer !== undefined ? (
        <button type="button" aria-label={`Reveal ${name}`} onClick={() => void reveal()}>
          Reveal
        </button>
      ) : null}
      {problem ? <span className="error-text"> {problem}</span> : null}
    </span>
  );
}
