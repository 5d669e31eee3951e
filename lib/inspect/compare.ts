/**
 * Comparing two decision points: the entries of a RunDiff, shared by the positional diff
 * (diff.ts) and the opt-in realignment (realign.ts).
 */
import { sameJson } from "../journal/canonical";
import type { DecisionKind, DecisionPoint, ModelDecision, ToolCallSignature, ToolDecision, ToolStatus } from "./decisions";

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

/**
 * Both sides' detail. Every field is always present (undefined where a side has none, which JSON
 * drops): one object shape for every entry keeps a 100,000-entry diff fast and small.
 */
function detailOf(a: DecisionPoint | undefined, b: DecisionPoint | undefined): DiffDetail {
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
    toolCallsA: modelA?.toolCalls,
    toolCallsB: modelB?.toolCalls,
    toolName: toolA && toolB && toolA.toolName !== toolB.toolName ? `${toolA.toolName} → ${toolB.toolName}` : (toolA ?? toolB)?.toolName,
    toolNameA: toolA?.toolName,
    toolNameB: toolB?.toolName,
    argsHashA: toolA?.argsHash,
    argsHashB: toolB?.argsHash,
    statusA: toolA?.status,
    statusB: toolB?.status,
    outputA: toolA?.output,
    outputB: toolB?.output,
    note: undefined,
  };
}

function sameCalls(a: readonly ToolCallSignature[], b: readonly ToolCallSignature[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) {
    const left = a[index] as ToolCallSignature;
    const right = b[index] as ToolCallSignature;
    if (left.toolName !== right.toolName || left.argsHash !== right.argsHash) return false;
  }
  return true;
}

function sameTool(a: ToolDecision, b: ToolDecision): boolean {
  if (a.toolName !== b.toolName || a.status !== b.status || a.argsHash !== b.argsHash) return false;
  return sameJson(a.output, b.output);
}

function describe(point: DecisionPoint): string {
  return point.kind === "model" ? `a model step (step ${point.step})` : `a tool call (${point.toolName})`;
}

/** One entry comparing A's and B's points at the same place. */
export function compareAt(index: number, a: DecisionPoint, b: DecisionPoint): DiffEntry {
  const detail = detailOf(a, b);
  let same: boolean;
  if (a.kind !== b.kind) {
    same = false;
    detail.note = `A has ${describe(a)} where B has ${describe(b)}`;
  } else if (a.kind === "model") {
    same = a.text === (b as ModelDecision).text && sameCalls(a.toolCalls, (b as ModelDecision).toolCalls);
  } else {
    same = sameTool(a, b as ToolDecision);
  }
  return { index, step: a.step, kind: a.kind, status: same ? "same" : "changed", indexA: a.index, indexB: b.index, detail, realigned: undefined };
}

export function onlyIn(index: number, point: DecisionPoint, side: "A" | "B"): DiffEntry {
  const a = side === "A" ? point : undefined;
  const b = side === "B" ? point : undefined;
  return { index, step: point.step, kind: point.kind, status: a ? "missing" : "added", indexA: a?.index, indexB: b?.index, detail: detailOf(a, b), realigned: undefined };
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

