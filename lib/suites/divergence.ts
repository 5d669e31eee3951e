/**
 * The first divergence of a replay, in words, for a batch's table, JUnit failure messages and the
 * pull-request summary: "model step 0 calls chargeCard with amount 500 → 5000". Pure: a diff in,
 * one line out (bounded, so a huge argument never floods a report).
 */
import type { DiffEntry } from "../inspect/compare";
import type { ToolCallSignature } from "../inspect/decision-points";
import type { RunDiff } from "../inspect/diff";
import { jsonChanges } from "../inspect/diff-view";
import { secretKeyMatcher } from "../inspect/redact";

/** Stored words never quote a value under a secret-looking key (the default patterns of lib/inspect/redact.ts). */
const isSecret = secretKeyMatcher();

const MAX_VALUE = 60;
const MAX_LINE = 300;

function short(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? "undefined");
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** "amount 500 → 5000, note added": the argument changes of one tool call. */
function argChanges(before: unknown, after: unknown): string {
  const changes = jsonChanges(before, after);
  const words = changes.slice(0, 3).map((change) => {
    const path = change.path || "args";
    const key = /([A-Za-z_$][\w$]*)(?:\[\d+\])*$/.exec(path)?.[1] ?? "";
    if (isSecret(key)) return `${path} changed`;
    if (change.change === "added") return `${path} added (${short(change.after)})`;
    if (change.change === "removed") return `${path} removed (was ${short(change.before)})`;
    if (change.change === "moved") return `${path} moved`;
    return `${path} ${short(change.before)} → ${short(change.after)}`;
  });
  return words.join(", ") + (changes.length > 3 ? `, and ${changes.length - 3} more` : "");
}

function modelWords(entry: DiffEntry): string {
  const detail = entry.detail;
  const callsA: ToolCallSignature[] = detail.toolCallsA ?? [];
  const callsB: ToolCallSignature[] = detail.toolCallsB ?? [];
  const where = `model step ${entry.step}`;
  for (let index = 0; index < Math.max(callsA.length, callsB.length); index += 1) {
    const a = callsA[index];
    const b = callsB[index];
    if (a && !b) return `${where} no longer calls ${a.toolName}`;
    if (!a && b) return `${where} also calls ${b.toolName} ${short(b.args)}`;
    if (a && b && a.toolName !== b.toolName) return `${where} calls ${b.toolName} instead of ${a.toolName}`;
    if (a && b && a.argsHash !== b.argsHash) return `${where} calls ${a.toolName} with ${argChanges(a.args, b.args)}`;
  }
  if ((detail.textA ?? "") !== (detail.textB ?? "")) return `${where} answers ${short(detail.textB ?? "")} instead of ${short(detail.textA ?? "")}`;
  return `${where} differs`;
}

function toolWords(entry: DiffEntry): string {
  const detail = entry.detail;
  const name = detail.toolName ?? detail.toolNameA ?? detail.toolNameB ?? "?";
  const where = `tool ${name} (model step ${entry.step})`;
  if (detail.toolNameA !== detail.toolNameB) return `${where}: ${detail.toolNameB ?? "?"} instead of ${detail.toolNameA ?? "?"}`;
  if (detail.statusA !== detail.statusB) return `${where} ${detail.statusB ?? "?"} instead of ${detail.statusA ?? "?"}`;
  if (detail.argsHashA !== detail.argsHashB) return `${where} ran with other arguments`;
  return `${where} returned ${short(detail.outputB)} instead of ${short(detail.outputA)}`;
}

/** One line for one diff entry that is not `same`. */
export function entryWords(entry: DiffEntry): string {
  const what = entry.kind === "model" ? "a model step" : `a call of ${entry.detail.toolName ?? entry.detail.toolNameA ?? entry.detail.toolNameB ?? "a tool"}`;
  let line: string;
  if (entry.status === "missing") line = `the replay stops before ${what} (model step ${entry.step})`;
  else if (entry.status === "added") line = `the replay adds ${what} (model step ${entry.step})`;
  else if (entry.detail.note) line = entry.detail.note;
  else line = entry.kind === "model" ? modelWords(entry) : toolWords(entry);
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}

/** The first divergence in words, or null when the runs decide identically. */
export function divergenceWords(diff: Pick<RunDiff, "steps" | "divergentAt">): string | null {
  if (diff.divergentAt === null) return null;
  const entry = diff.steps[diff.divergentAt];
  return entry ? entryWords(entry) : `row ${diff.divergentAt} differs`;
}
