/**
 * Link previews: the title and one-line description a chat tool shows when a link to an inspector
 * page is shared (Open Graph and Twitter tags). Pure, and computed from the same projections the
 * pages render (the RunDiff's head and first divergence, a RunSummary, the recovery board), so a
 * preview never says something the page does not. A preview has no "Reveal": values under
 * secret-looking keys are redacted before they are compared or printed.
 */
import type { RunSummary } from "../journal/types";
import type { DiffEntry, DiffSummary, RunDiff } from "./diff";
import type { DiffDetail } from "./compare";
import { jsonChanges, type JsonChange } from "./diff-view";
import { redactValue } from "./redact";

export interface LinkPreview {
  title: string;
  description: string;
}

/** A value in a preview is at most this many characters. */
const VALUE_WIDTH = 40;

function shortValue(value: unknown): string {
  const text = JSON.stringify(value ?? null) ?? "null";
  return text.length > VALUE_WIDTH ? `${text.slice(0, VALUE_WIDTH - 1)}…` : text;
}

function changeText(prefix: string, changes: readonly JsonChange[], whole: string): string {
  const first = changes[0];
  if (!first) return `${prefix} ${whole} differ`;
  const where = first.path === "" ? `${prefix} ${whole}` : `${prefix} ${first.path}`;
  const what =
    first.change === "added"
      ? `added ${shortValue(first.after)}`
      : first.change === "removed"
        ? `removed ${shortValue(first.before)}`
        : first.change === "moved"
          ? `moved ${String(first.after)}`
          : `${shortValue(first.before)} → ${shortValue(first.after)}`;
  const more = changes.length > 1 ? ` (and ${changes.length - 1} more change${changes.length === 2 ? "" : "s"})` : "";
  return `${where} ${what}${more}`;
}

/** What differs between two model steps: the first differing tool call, else the text. */
function modelChange(detail: DiffDetail, isSecret: (key: string) => boolean): string {
  const callsA = detail.toolCallsA ?? [];
  const callsB = detail.toolCallsB ?? [];
  for (let index = 0; index < Math.max(callsA.length, callsB.length); index += 1) {
    const a = callsA[index];
    const b = callsB[index];
    if (!a) return `B also calls ${b?.toolName ?? "a tool"}`;
    if (!b) return `A also calls ${a.toolName}`;
    if (a.toolName !== b.toolName) return `calls ${a.toolName} → ${b.toolName}`;
    const changes = jsonChanges(redactValue(a.args, isSecret), redactValue(b.args, isSecret));
    if (changes.length > 0) return changeText(a.toolName, changes, "arguments");
  }
  return detail.textA === detail.textB ? "the model steps differ" : "the model's text differs";
}

/** What differs between two tool points: the status, else the output. */
function toolChange(detail: DiffDetail, isSecret: (key: string) => boolean): string {
  const name = detail.toolName ?? detail.toolNameA ?? "a tool";
  if (detail.toolNameA !== detail.toolNameB) return `tool ${detail.toolNameA ?? "?"} → ${detail.toolNameB ?? "?"}`;
  if (detail.statusA !== detail.statusB) return `${name} ${detail.statusA ?? "?"} → ${detail.statusB ?? "?"}`;
  const changes = jsonChanges(redactValue(detail.outputA, isSecret), redactValue(detail.outputB, isSecret));
  return changeText(`${name} output`, changes, "value");
}

/** One phrase for an entry that is not "same": "chargeCard amount 500 → 5000". */
export function entryChange(entry: DiffEntry, isSecret: (key: string) => boolean): string {
  const { detail } = entry;
  if (entry.status === "missing") return `only A has a ${entry.kind === "model" ? "model step" : "tool call"} here`;
  if (entry.status === "added") return `only B has a ${entry.kind === "model" ? "model step" : "tool call"} here`;
  if (detail.kindA !== detail.kindB) return detail.note ?? "a model step against a tool call";
  return detail.kindA === "model" ? modelChange(detail, isSecret) : toolChange(detail, isSecret);
}

function counts(summary: DiffSummary): string {
  const parts = [`${summary.same} same`, `${summary.changed} changed`];
  if (summary.missing > 0) parts.push(`${summary.missing} missing in B`);
  if (summary.added > 0) parts.push(`${summary.added} added in B`);
  return parts.join(", ");
}

/**
 * "order-123 vs order-123~v2: first divergence at row 0, chargeCard amount 500 → 5000", then the
 * counts. `first` is the entry at `head.divergentAt`.
 */
export function diffPreview(head: Omit<RunDiff, "steps">, first: DiffEntry | undefined, isSecret: (key: string) => boolean): LinkPreview {
  const pair = `${head.a} vs ${head.b}`;
  const title = `${pair} · Backtrack diff`;
  if (head.divergentAt === null || !first) return { title, description: `${pair}: the runs decide identically (${head.pointsA} decisions each).` };
  return { title, description: `${pair}: first divergence at row ${head.divergentAt}, ${entryChange(first, isSecret)}. ${counts(head.summary)}.` };
}

function plural(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

/** "order-123 · complete · billing": the status (with a pause's reason) and the run's counts. */
export function runPreview(run: RunSummary): LinkPreview {
  const status = run.status === "paused" && run.pause ? `paused (${run.pause.reason})` : run.status;
  const counted = [
    plural(run.recordCount, "record"),
    plural(run.modelTurns, "model turn"),
    plural(run.toolCalls, "tool call"),
    plural(run.inputTokens + run.outputTokens, "token"),
  ];
  return {
    title: `${run.runId} · ${status} · Backtrack`,
    description: `Run ${run.runId}${run.agent ? ` (agent ${run.agent})` : ""}: ${status}, ${counted.join(", ")}.`,
  };
}

/** The recovery board in one line: how many runs are unfinished, by what they wait for. */
export function recoveryPreview(waiting: ReadonlyArray<{ waiting: { kind: string } }>): LinkPreview {
  const title = "Recovery · Backtrack";
  if (waiting.length === 0) return { title, description: "Nothing to recover: every run is complete." };
  const byKind = new Map<string, number>();
  for (const entry of waiting) byKind.set(entry.waiting.kind, (byKind.get(entry.waiting.kind) ?? 0) + 1);
  const words: Record<string, string> = {
    approval: "waiting for approval",
    interrupt: "waiting for an answer",
    sleep: "asleep",
    halt: "halted on an unknown outcome",
    running: "cut off mid-drive",
    failed: "failed",
  };
  const parts = [...byKind].map(([kind, count]) => `${count} ${words[kind] ?? kind}`);
  return { title, description: `${plural(waiting.length, "unfinished run")}: ${parts.join(", ")}.` };
}

/** A session: its app and user, how many events, and which state keys it holds (names, never values). */
export function sessionPreview(session: { id: string; app: string; user: string; events: readonly unknown[]; state: Record<string, unknown> }): LinkPreview {
  const keys = Object.keys(session.state);
  const shown = keys.slice(0, 6).join(", ") + (keys.length > 6 ? ", …" : "");
  return {
    title: `${session.id} · Sessions · Backtrack`,
    description: `Session ${session.id} of app ${session.app}, user ${session.user}: ${plural(session.events.length, "event")}${keys.length > 0 ? `, state ${shown}` : ", empty state"}.`,
  };
}
