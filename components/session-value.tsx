"use client";

/**
 * A state value inline: a scalar as JSON text, an object or array as a collapsed payload tree; a
 * value the server redacted through the payload viewer, for "Reveal" (`pointer`: where it sits).
 */
import { isRedacted } from "@/lib/inspect/redact";
import type { JsonValue } from "@/lib/sessions/types";
import { PayloadViewer } from "./payload-viewer";

export function SessionValue({ value, label, pointer }: { value: JsonValue | undefined; label: string; pointer?: string }) {
  if (value === undefined) return <span className="muted">absent</span>;
  if ((value !== null && typeof value === "object") || (typeof value === "string" && isRedacted(value)))
    return <PayloadViewer value={value} label={label} openDepth={0} pointer={pointer} />;
  return <span className="mono">{JSON.stringify(value)}</span>;
}

/** One-line text of a value for a "before → after" cell. */
export function valueText(value: JsonValue | undefined, width = 40): string {
  if (value === undefined) return "absent";
  const text = JSON.stringify(value);
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
