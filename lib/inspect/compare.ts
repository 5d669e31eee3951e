/**
 * Comparing two decision points: the entries of a RunDiff, shared by the positional diff
 * (diff.ts) and the opt-in realignment (realign.ts).
 */
import { canonicalJson } from "../journal/canonical";
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

function sideDetail(point: DecisionPoint, side: "A" | "B"): DiffDetail {
  if (point.kind === "model") {
    return side === "A"
      ? { kindA: "model", seqA: point.seq, textA: point.text, toolCallsA: point.toolCalls }
      : { kindB: "model", seqB: point.seq, textB: point.text, toolCallsB: point.toolCalls };
  }
  return side === "A"
    ? { kindA: "tool", seqA: point.seq, toolNameA: point.toolName, argsHashA: point.argsHash, statusA: point.status, outputA: point.output }
    : { kindB: "tool", seqB: point.seq, toolNameB: point.toolName, argsHashB: point.argsHash, statusB: point.status, outputB: point.output };
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
  return a.output === b.output || canonicalJson(a.output) === canonicalJson(b.output);
}

function describe(point: DecisionPoint): string {
  return point.kind === "model" ? `a model step (step ${point.step})` : `a tool call (${point.toolName})`;
}

/** One entry comparing A's and B's points at the same place. */
export function compareAt(index: number, a: DecisionPoint, b: DecisionPoint): DiffEntry {
  const detail: DiffDetail = { ...sideDetail(a, "A"), ...sideDetail(b, "B") };
  let same: boolean;
  if (a.kind !== b.kind) {
    same = false;
    detail.note = `A has ${describe(a)} where B has ${describe(b)}`;
  } else if (a.kind === "model") {
    same = a.text === (b as ModelDecision).text && sameCalls(a.toolCalls, (b as ModelDecision).toolCalls);
  } else {
    const other = b as ToolDecision;
    detail.toolName = a.toolName === other.toolName ? a.toolName : `${a.toolName} → ${other.toolName}`;
    same = sameTool(a, other);
  }
  return { index, step: a.step, kind: a.kind, status: same ? "same" : "changed", indexA: a.index, indexB: b.index, detail };
}

export function onlyIn(index: number, point: DecisionPoint, side: "A" | "B"): DiffEntry {
  const detail = sideDetail(point, side);
  if (point.kind === "tool") detail.toolName = point.toolName;
  return {
    index,
    step: point.step,
    kind: point.kind,
    status: side === "A" ? "missing" : "added",
    ...(side === "A" ? { indexA: point.index } : { indexB: point.index }),
    detail,
  };
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

