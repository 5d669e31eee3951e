/**
 * Comparing two decision points: the entries of a RunDiff, shared by the positional diff
 * (diff.ts) and the opt-in realignment (realign.ts).
 *
 * An entry keeps its two points and builds its `detail` when first read (then keeps it): a diff
 * of 100,000 points is read a page at a time, and building every detail up front (with its
 * arguments hashes) cost more than the comparison itself. JSON (`toJSON`) and `plainEntry` give
 * the detail whole, as a plain object.
 */
import type { DecisionKind, DecisionPoint, ModelDecision, ToolCallSignature, ToolDecision, ToolStatus } from "./decisions";
import { canonicalEqual } from "./equal";

export type DiffStatus = "same" | "changed" | "missing" | "added";

/** Both sides' detail of one decision point; a side's fields are absent when it has no such point. */
export interface DiffDetail {
  kindA?: DecisionKind;
  kindB?: DecisionKind;
  seqA?: number;
  seqB?: number;
  /** model points */
  textA?: string;
  textB?: string;
  toolCallsA?: ToolCallSignature[];
  toolCallsB?: ToolCallSignature[];
  /** tool points: the tool's name, or "a → b" when the two differ */
  toolName?: string;
  toolNameA?: string;
  toolNameB?: string;
  argsHashA?: string;
  argsHashB?: string;
  statusA?: ToolStatus;
  statusB?: ToolStatus;
  outputA?: unknown;
  outputB?: unknown;
  /** A structural mismatch: a model step in one run where the other has a tool call. */
  note?: string;
}

export interface DiffEntry {
  /** Position in `steps`. */
  index: number;
  /** The model step of A's point (B's when only B has one). */
  step: number;
  /** A's kind (B's when only B has a point here). */
  kind: DecisionKind;
  status: DiffStatus;
  /** Positions in each run's decision sequence. */
  indexA?: number;
  indexB?: number;
  detail: DiffDetail;
  /** Placed by the opt-in realignment, not by position. */
  realigned?: true;
}

export interface DiffSummary {
  same: number;
  changed: number;
  missing: number;
  added: number;
}

function describe(point: DecisionPoint): string {
  return point.kind === "model" ? `a model step (step ${point.step})` : `a tool call (${point.toolName})`;
}

const plainCall = (call: ToolCallSignature): ToolCallSignature => ({ toolName: call.toolName, argsHash: call.argsHash, args: call.args });

/**
 * Both sides' detail. Every field is always present (undefined where a side has none, which JSON
 * drops): one object shape for every entry. `plain` copies the tool calls into plain objects
 * (reading their hashes); without it they are the points' own, hashed on demand.
 */
function detailOf(a: DecisionPoint | undefined, b: DecisionPoint | undefined, plain: boolean): DiffDetail {
  const modelA = a?.kind === "model" ? a : undefined;
  const modelB = b?.kind === "model" ? b : undefined;
  const toolA = a?.kind === "tool" ? a : undefined;
  const toolB = b?.kind === "tool" ? b : undefined;
  return {
    kindA: a?.kind,
    kindB: b?.kind,
    seqA: a?.seq,
    seqB: b?.seq,
    textA: modelA?.text,
    textB: modelB?.text,
    toolCallsA: plain ? modelA?.toolCalls.map(plainCall) : modelA?.toolCalls,
    toolCallsB: plain ? modelB?.toolCalls.map(plainCall) : modelB?.toolCalls,
    toolName: toolA && toolB && toolA.toolName !== toolB.toolName ? `${toolA.toolName} → ${toolB.toolName}` : (toolA ?? toolB)?.toolName,
    toolNameA: toolA?.toolName,
    toolNameB: toolB?.toolName,
    argsHashA: plain ? toolA?.argsHash : undefined,
    argsHashB: plain ? toolB?.argsHash : undefined,
    statusA: toolA?.status,
    statusB: toolB?.status,
    outputA: toolA?.output,
    outputB: toolB?.output,
    note: a && b && a.kind !== b.kind ? `A has ${describe(a)} where B has ${describe(b)}` : undefined,
  };
}

/** An entry of a diff, over its two points (either may be absent). */
export class ComparedEntry implements DiffEntry {
  readonly index: number;
  readonly step: number;
  readonly kind: DecisionKind;
  readonly status: DiffStatus;
  readonly indexA: number | undefined;
  readonly indexB: number | undefined;
  realigned: true | undefined = undefined;
  readonly #a: DecisionPoint | undefined;
  readonly #b: DecisionPoint | undefined;
  #detail: DiffDetail | undefined = undefined;

  constructor(index: number, status: DiffStatus, a: DecisionPoint | undefined, b: DecisionPoint | undefined) {
    const point = (a ?? b) as DecisionPoint;
    this.index = index;
    this.step = point.step;
    this.kind = point.kind;
    this.status = status;
    this.indexA = a?.index;
    this.indexB = b?.index;
    this.#a = a;
    this.#b = b;
  }

  get detail(): DiffDetail {
    return (this.#detail ??= detailOf(this.#a, this.#b, true));
  }

  /** The detail as read so far, or one whose tool calls are the points' own and whose hashes are left out (for rows). */
  glance(): DiffDetail {
    return this.#detail ?? detailOf(this.#a, this.#b, false);
  }

  toJSON(): DiffEntry {
    const { index, step, kind, status, indexA, indexB, detail, realigned } = this;
    return { index, step, kind, status, indexA, indexB, detail, realigned };
  }
}

/** The entry as a plain object, detail included (what JSON gives; for a React client component's props). */
export function plainEntry(entry: DiffEntry): DiffEntry {
  return entry instanceof ComparedEntry ? entry.toJSON() : entry;
}

/** An entry's detail for a one-line view: argsHash fields may be absent, tool calls may be the points' own. */
export function glance(entry: DiffEntry): DiffDetail {
  return entry instanceof ComparedEntry ? entry.glance() : entry.detail;
}

function sameCalls(a: readonly ToolCallSignature[], b: readonly ToolCallSignature[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) {
    const left = a[index] as ToolCallSignature;
    const right = b[index] as ToolCallSignature;
    if (left.toolName !== right.toolName || !canonicalEqual(left.args, right.args)) return false;
  }
  return true;
}

/** Equal arguments are exactly equal hashes (both are of canonical JSON): no hash is needed here. */
function sameTool(a: ToolDecision, b: ToolDecision): boolean {
  return a.toolName === b.toolName && a.status === b.status && canonicalEqual(a.args, b.args) && canonicalEqual(a.output, b.output);
}

/** Whether A's and B's points decide the same. */
export function samePoint(a: DecisionPoint, b: DecisionPoint): boolean {
  if (a.kind === "model") return b.kind === "model" && a.text === b.text && sameCalls(a.toolCalls, (b as ModelDecision).toolCalls);
  return b.kind === "tool" && sameTool(a, b);
}

/** One entry comparing A's and B's points at the same place. */
export function compareAt(index: number, a: DecisionPoint, b: DecisionPoint): ComparedEntry {
  return new ComparedEntry(index, samePoint(a, b) ? "same" : "changed", a, b);
}

export function onlyIn(index: number, point: DecisionPoint, side: "A" | "B"): ComparedEntry {
  return side === "A" ? new ComparedEntry(index, "missing", point, undefined) : new ComparedEntry(index, "added", undefined, point);
}

export function summarise(steps: readonly DiffEntry[]): { summary: DiffSummary; divergentAt: number | null } {
  const summary: DiffSummary = { same: 0, changed: 0, missing: 0, added: 0 };
  let divergentAt: number | null = null;
  for (const entry of steps) {
    summary[entry.status] += 1;
    if (divergentAt === null && entry.status !== "same") divergentAt = entry.index;
  }
  return { summary, divergentAt };
}
