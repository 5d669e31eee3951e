/**
 * The diff page's projections of a RunDiff (diff.ts), pure so that the page, its tests and any
 * other view agree: one compact row per entry for the virtualised list, a word diff of model text
 * (the `diff` package), a structural diff of JSON values (jsondiffpatch's delta, flattened into
 * path-by-path changes that a view renders as text, never as HTML), and the Markdown summary the
 * "Copy as Markdown" button gives for a pull request. Page-only: not exported from the package
 * entry (app/ and components/ import it by path; .dependency-cruiser.cjs keeps it off the entries).
 */
import { diffWords } from "diff";
import { create, type Delta } from "jsondiffpatch";
import type { DecisionKind } from "./decision-points";
import type { DiffDetail } from "./compare";
import type { DiffEntry, DiffStatus, DiffSummary, RunDiff } from "./diff";

/** One line of the rows list: enough to draw it without the entry's detail. */
export interface DiffRow {
  index: number;
  status: DiffStatus;
  kind: DecisionKind;
  step: number;
  label: string;
  /** The record seqs behind each side's point (-1: a tool call without a result; absent: no point). */
  seqA?: number;
  seqB?: number;
  realigned?: true;
}

/**
 * The rows packed for the trip to the browser: column by column, labels once each. Two 20,000-record
 * runs make about 12,000 rows, 1.6 MB as objects and about a tenth of that packed, and the page's
 * first content waits for the bytes.
 */
export interface PackedRows {
  /** One character a row: s(ame), c(hanged), m(issing), a(dded). */
  statuses: string;
  /** One character a row: m(odel), t(ool). */
  kinds: string;
  steps: number[];
  labels: string[];
  /** Index into `labels`, a row. */
  labelOf: number[];
  /** The seqs; -2 where the side has no point (-1 is a tool call without a result). */
  seqA: number[];
  seqB: number[];
  /** Indexes of the realigned rows. */
  realigned: number[];
}

const STATUS_CODE: Record<DiffStatus, string> = { same: "s", changed: "c", missing: "m", added: "a" };
const CODE_STATUS: Record<string, DiffStatus> = { s: "same", c: "changed", m: "missing", a: "added" };
const NO_POINT = -2;

export function packRows(rows: readonly DiffRow[]): PackedRows {
  const packed: PackedRows = { statuses: "", kinds: "", steps: [], labels: [], labelOf: [], seqA: [], seqB: [], realigned: [] };
  const labels = new Map<string, number>();
  const statuses: string[] = [];
  const kinds: string[] = [];
  for (const row of rows) {
    statuses.push(STATUS_CODE[row.status]);
    kinds.push(row.kind === "model" ? "m" : "t");
    packed.steps.push(row.step);
    let label = labels.get(row.label);
    if (label === undefined) {
      label = packed.labels.length;
      labels.set(row.label, label);
      packed.labels.push(row.label);
    }
    packed.labelOf.push(label);
    packed.seqA.push(row.seqA ?? NO_POINT);
    packed.seqB.push(row.seqB ?? NO_POINT);
    if (row.realigned) packed.realigned.push(row.index);
  }
  packed.statuses = statuses.join("");
  packed.kinds = kinds.join("");
  return packed;
}

export function unpackRows(packed: PackedRows): DiffRow[] {
  const realigned = new Set(packed.realigned);
  const rows: DiffRow[] = new Array(packed.statuses.length);
  for (let index = 0; index < rows.length; index += 1) {
    const row: DiffRow = {
      index,
      status: CODE_STATUS[packed.statuses[index] as string] as DiffStatus,
      kind: packed.kinds[index] === "m" ? "model" : "tool",
      step: packed.steps[index] as number,
      label: packed.labels[packed.labelOf[index] as number] as string,
    };
    const seqA = packed.seqA[index] as number;
    const seqB = packed.seqB[index] as number;
    if (seqA !== NO_POINT) row.seqA = seqA;
    if (seqB !== NO_POINT) row.seqB = seqB;
    if (realigned.has(index)) row.realigned = true;
    rows[index] = row;
  }
  return rows;
}

/** The RunDiff without its entries: what the page header and the Markdown summary need. */
export type DiffHead = Omit<RunDiff, "steps">;

const LABEL_TEXT = 60;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > LABEL_TEXT ? `${flat.slice(0, LABEL_TEXT - 1)}…` : flat;
}

function modelLabel(text: string | undefined, calls: ReadonlyArray<{ toolName: string }> | undefined): string {
  if (calls && calls.length > 0) return `LLM → ${excerpt(calls.map((call) => call.toolName).join(", "))}`;
  return text ? `LLM: ${excerpt(text)}` : "LLM";
}

/** A row's one-line title: A's side, or B's when only B has a point; both when their kinds differ. */
function labelOf(entry: DiffEntry, detail: DiffDetail): string {
  const side = (which: "A" | "B"): string | undefined => {
    const kind = which === "A" ? detail.kindA : detail.kindB;
    if (kind === "model") return modelLabel(which === "A" ? detail.textA : detail.textB, which === "A" ? detail.toolCallsA : detail.toolCallsB);
    if (kind === "tool") return `tool: ${(which === "A" ? detail.toolNameA : detail.toolNameB) ?? "?"}`;
    return undefined;
  };
  const a = side("A");
  const b = side("B");
  if (a && b && detail.kindA !== detail.kindB) return `${a} ≠ ${b}`;
  if (a && b && detail.kindA === "tool" && detail.toolNameA !== detail.toolNameB) return `tool: ${detail.toolName ?? "?"}`;
  return a ?? b ?? entry.kind;
}

function diffRow(entry: DiffEntry): DiffRow {
  // A glance, not the detail: a row needs no arguments hashes, and the page makes a row of every entry.
  const detail = entry.glance?.() ?? entry.detail;
  const row: DiffRow = { index: entry.index, status: entry.status, kind: entry.kind, step: entry.step, label: labelOf(entry, detail) };
  // Absent rather than undefined: the rows travel to the browser, and every key costs bytes.
  if (detail.seqA !== undefined) row.seqA = detail.seqA;
  if (detail.seqB !== undefined) row.seqB = detail.seqB;
  if (entry.realigned) row.realigned = true;
  return row;
}

export function diffRows(diff: Pick<RunDiff, "steps">): DiffRow[] {
  return diff.steps.map(diffRow);
}

export function diffHead(diff: RunDiff): DiffHead {
  const { steps: _steps, ...head } = diff;
  return head;
}

/** Where the page opens: `at` when given (clamped), else the first divergence, else the first row. */
export function initialRow(at: number | null | undefined, head: Pick<DiffHead, "divergentAt">, rows: number): number {
  if (rows <= 0) return 0;
  const wanted = at === null || at === undefined || !Number.isFinite(at) ? (head.divergentAt ?? 0) : Math.trunc(at);
  return Math.min(Math.max(wanted, 0), rows - 1);
}

/** The row that holds `seq` on one side: the last row whose point on that side is at or before it. */
export function rowOfSeq(rows: readonly DiffRow[], side: "A" | "B", seq: number): number | undefined {
  let found: number | undefined;
  for (const row of rows) {
    const at = side === "A" ? row.seqA : row.seqB;
    if (at === undefined || at < 0) continue;
    if (at > seq) break;
    found = row.index;
  }
  return found;
}

export const STATUS_WORDS: Record<DiffStatus, string> = { same: "same", changed: "changed", missing: "missing in B", added: "added in B" };

/** B is a fork of A at step `at`; `edited`: its record there is an edit of A's. */
export interface ForkLineageView {
  at: number;
  edited: boolean;
}

/**
 * A row's word when B is a fork of A: a same row whose B record is before the fork step was
 * copied ("same (copied)"), and the row of the fork step itself is "edited" when the fork edited it.
 */
export function rowWord(row: Pick<DiffRow, "status" | "seqB">, lineage: ForkLineageView | null): string {
  const seq = row.seqB ?? -1;
  if (lineage && seq >= 0) {
    if (seq < lineage.at && row.status === "same") return "same (copied)";
    if (seq === lineage.at && lineage.edited) return "edited";
  }
  return STATUS_WORDS[row.status];
}

/** One piece of a word diff: text both sides share, or text only A (removed) or only B (added) has. */
export interface WordPart {
  text: string;
  change: "same" | "removed" | "added";
}

/** Past this many characters the word diff gives up (the panel then shows both texts whole). */
const WORD_DIFF_LIMIT = 20_000;

/** The word diff of A's text to B's, or undefined when either is too long to diff here. */
export function wordDiff(a: string, b: string): WordPart[] | undefined {
  if (a.length + b.length > WORD_DIFF_LIMIT) return undefined;
  const parts = diffWords(a, b, { timeout: 200 });
  if (!parts) return undefined;
  return parts.map((part) => ({ text: part.value, change: part.added ? "added" : part.removed ? "removed" : "same" }));
}

/** One structural change between two JSON values, at a path like `items[2].amount` ("" is the whole value). */
export interface JsonChange {
  path: string;
  change: "added" | "removed" | "changed" | "moved";
  before?: unknown;
  after?: unknown;
}

const patcher = create({ arrays: { detectMove: true, includeValueOnMove: true }, cloneDiffValues: false });

function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

function walk(delta: Delta, path: string, out: JsonChange[]): void {
  if (delta === undefined) return;
  if (Array.isArray(delta)) {
    if (delta.length === 1) out.push({ path, change: "added", after: delta[0] });
    else if (delta.length === 2) out.push({ path, change: "changed", before: delta[0], after: delta[1] });
    else if (delta[2] === 0) out.push({ path, change: "removed", before: delta[0] });
    else if (delta[2] === 3) out.push({ path, change: "moved", before: delta[0], after: `to ${join("", Number(delta[1]))}` });
    return;
  }
  const object = delta as Record<string, Delta>;
  if (object._t === ("a" as unknown)) {
    for (const key of Object.keys(object)) {
      if (key === "_t") continue;
      // "_3" is index 3 of A (removed or moved away); "3" is index 3 of B.
      walk(object[key], join(path, Number(key.startsWith("_") ? key.slice(1) : key)), out);
    }
    return;
  }
  for (const key of Object.keys(object)) walk(object[key], join(path, key), out);
}

/** The structural differences between two JSON values, in path order; empty when they are equal. */
export function jsonChanges(a: unknown, b: unknown): JsonChange[] {
  const out: JsonChange[] = [];
  walk(patcher.diff(a ?? null, b ?? null), "", out);
  return out;
}

/** Inline code in Markdown, fenced so that a backtick in the text cannot end it. */
export function markdownCode(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

function json(value: unknown): string {
  const text = JSON.stringify(value ?? null);
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** One side of an entry, as Markdown list lines. */
function sideLines(entry: DiffEntry, side: "A" | "B"): string[] {
  const { detail } = entry;
  const kind = side === "A" ? detail.kindA : detail.kindB;
  if (!kind) return [`- **${side}**: no decision here`];
  if (kind === "model") {
    const text = side === "A" ? detail.textA : detail.textB;
    const calls = (side === "A" ? detail.toolCallsA : detail.toolCallsB) ?? [];
    const lines = [`- **${side}**: model step${text ? `, text ${markdownCode(excerpt(text))}` : ""}`];
    for (const call of calls) lines.push(`  - calls ${markdownCode(`${call.toolName} ${json(call.args)}`)}`);
    return lines;
  }
  const name = (side === "A" ? detail.toolNameA : detail.toolNameB) ?? "?";
  const status = side === "A" ? detail.statusA : detail.statusB;
  const output = side === "A" ? detail.outputA : detail.outputB;
  return [`- **${side}**: tool ${markdownCode(name)} ${status ?? ""}, output ${markdownCode(json(output))}`];
}

function counts(summary: DiffSummary): string {
  return `${summary.same} same · ${summary.changed} changed · ${summary.missing} missing · ${summary.added} added`;
}

/** The pull-request summary: both runs, the counts, the first divergence with both sides, the link. */
export function diffMarkdown(head: DiffHead, first: DiffEntry | undefined, link: string): string {
  const lines = [
    `### Backtrack diff: ${markdownCode(head.a)} → ${markdownCode(head.b)}`,
    "",
    `- A: ${markdownCode(head.a)} (${head.pointsA} decisions), B: ${markdownCode(head.b)} (${head.pointsB} decisions)`,
    `- ${counts(head.summary)} (${head.alignment === "realigned" ? "realigned after the first divergence" : "aligned by position"})`,
  ];
  if (head.divergentAt === null || !first) lines.push("- The runs decide identically.");
  else {
    lines.push(`- First divergence: row ${first.index} (step ${first.step}, ${first.kind === "model" ? "model decision" : "tool call"}): **${STATUS_WORDS[first.status]}**`);
    if (first.detail.note) lines.push(`- ${first.detail.note}`);
    lines.push("", ...sideLines(first, "A"), ...sideLines(first, "B"));
  }
  lines.push("", `[Open the diff in Backtrack](<${link}>)`);
  return lines.join("\n");
}
