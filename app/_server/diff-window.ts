/**
 * A window of a diff's entries for an answer: compared on the raw values (cachedDiff), then
 * redacted with distinct markers per answer, so two different secrets never read as equal and
 * equal ones never as different; cut at the response budget. Only the window is decoded.
 */
import "server-only";
import { countWithin } from "@/lib/inspect/budget";
import type { DiffEntry } from "@/lib/inspect/compare";
import { diffEntries, type PackedDiff } from "@/lib/inspect/packed-diff";
import { redacted } from "./redaction";

export interface DiffWindow {
  entries: DiffEntry[];
  /** Where the next window starts, or null at the end. */
  nextFrom: number | null;
}

export function diffWindow(diff: PackedDiff, from: number, limit: number): DiffWindow {
  const page = redacted(diffEntries(diff, from, from + limit), { distinct: true });
  const entries = page.slice(0, countWithin(page));
  const nextFrom = from + entries.length;
  return { entries, nextFrom: entries.length > 0 && nextFrom < diff.entries.count ? nextFrom : null };
}

/** Query text for a diff link (the same runs and alignment) starting at `from`. */
export function diffQuery(a: string, b: string, realign: boolean, from: number, limit: number): string {
  const params = new URLSearchParams({ a, b, from: String(from), limit: String(limit) });
  if (realign) params.set("realign", "1");
  return params.toString();
}
