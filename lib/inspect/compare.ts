/**
 * Comparing two decision points: the entries of a RunDiff, shared by the positional diff
 * (diff.ts) and the opt-in realignment (realign.ts).
 *
 * An entry keeps its two points and builds its `detail` when first read (then keeps it): a diff
 * of 100,000 points is read a page at a time, and building every detail up front (with its
 * arguments hashes) cost more than the comparison itself. JSON (`toJSON`) and `plainEntry` give
 * the detail whole, as a plain object.
 */
import { stableHash } from "../journal/canonical";
import {
  callArgs,
  callName,
  callsOf as pointCalls,
  callSignature,
  nextCall,
  type ContentPart,
  type DecisionKind,
  type ModelPoint,
  type Point,
  type ToolCallSignature,
  type ToolPoint,
  type ToolStatus,
} from "./decision-points";
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
  /**
   * A diff's own entries (not JSON copies): the detail without building it, as a one-line view
   * needs it (no arguments hashes, tool calls without them).
   */
  glance?(): DiffDetail;
}

export interface DiffSummary {
  same: number;
  changed: number;
  missing: number;
  added: number;
}

/** The tool calls of a detail (with their hashes) or a glance (without: only their names are read). */
function callsOf(point: ModelPoint, hashes: boolean): ToolCallSignature[] {
  const calls = pointCalls(point);
  return hashes ? calls.map(callSignature) : (calls as ToolCallSignature[]);
}

function describe(point: Point): string {
  return point.kind === "model" ? `a model step (step ${point.step})` : `a tool call (${point.toolName})`;
}

/**
 * Both sides' detail. Every field is always present (undefined where a side has none, which JSON
 * drops): one object shape for every entry. `hashes`: with the arguments hashes (the detail); without
 * them, and tool calls without theirs (a glance).
 */
function detailOf(a: Point | undefined, b: Point | undefined, hashes: boolean): DiffDetail {
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
    toolCallsA: modelA && callsOf(modelA, hashes),
    toolCallsB: modelB && callsOf(modelB, hashes),
    toolName: toolA && toolB && toolA.toolName !== toolB.toolName ? `${toolA.toolName} → ${toolB.toolName}` : (toolA ?? toolB)?.toolName,
    toolNameA: toolA?.toolName,
    toolNameB: toolB?.toolName,
    argsHashA: hashes && toolA ? stableHash(toolA.args) : undefined,
    argsHashB: hashes && toolB ? stableHash(toolB.args) : undefined,
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
  readonly #a: Point | undefined;
  readonly #b: Point | undefined;
  #detail: DiffDetail | undefined = undefined;

  constructor(index: number, status: DiffStatus, a: Point | undefined, b: Point | undefined) {
    const point = (a ?? b) as Point;
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

  glance(): DiffDetail {
    return this.#detail ?? detailOf(this.#a, this.#b, false);
  }

  toJSON(): DiffEntry {
    const { index, step, kind, status, indexA, indexB, detail, realigned } = this;
    return { index, step, kind, status, indexA, indexB, detail, realigned };
  }
}

/**
 * One entry kept for the life of the process, so that entries' hidden class (V8's map) stays alive.
 * V8 frees a map once no object has it: between two diffs every entry can die, and a collection then
 * throws away the code optimised for entries (it checks their map), so each diff would start slow.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- it only has to stay alive
const keptEntry = new ComparedEntry(0, "same", { kind: "model", index: 0, step: 0, seq: 0, text: "", content: [], calls: 0 }, undefined);

/** The entry as a plain object, detail included (what JSON gives; for a React client component's props). */
export function plainEntry(entry: DiffEntry): DiffEntry {
  return entry instanceof ComparedEntry ? entry.toJSON() : entry;
}

/** The same tool calls (name and arguments, in content order), read from both contents in step. */
function sameCalls(a: ModelPoint, b: ModelPoint): boolean {
  if (a.calls !== b.calls) return false;
  for (let left = nextCall(a.content, 0), right = nextCall(b.content, 0); left >= 0; left = nextCall(a.content, left + 1), right = nextCall(b.content, right + 1)) {
    const partA = a.content[left] as ContentPart;
    const partB = b.content[right] as ContentPart;
    if (callName(partA) !== callName(partB) || !canonicalEqual(callArgs(partA), callArgs(partB))) return false;
  }
  return true;
}

/** Equal arguments are exactly equal hashes (both are of canonical JSON): no hash is needed here. */
function sameTool(a: ToolPoint, b: ToolPoint): boolean {
  return a.toolName === b.toolName && a.status === b.status && canonicalEqual(a.args, b.args) && canonicalEqual(a.output, b.output);
}

/** Whether A's and B's points decide the same. */
export function samePoint(a: Point, b: Point): boolean {
  if (a.kind === "model") return b.kind === "model" && a.text === b.text && sameCalls(a, b as ModelPoint);
  return b.kind === "tool" && sameTool(a, b);
}

/** One entry comparing A's and B's points at the same place. */
export function compareAt(index: number, a: Point, b: Point): ComparedEntry {
  return new ComparedEntry(index, samePoint(a, b) ? "same" : "changed", a, b);
}

export function onlyIn(index: number, point: Point, side: "A" | "B"): ComparedEntry {
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
