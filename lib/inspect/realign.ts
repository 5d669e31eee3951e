/**
 * Opt-in realignment of a diff after its first divergence: the longest common subsequence of the
 * two runs' remaining decision signatures (a point's signature holds exactly what the positional
 * comparison compares, so equal signatures are `same` points). Matched points become `same`
 * entries, and between two matches A's extra points pair with B's as `changed`, the rest are
 * `missing` / `added`. Every entry it places is marked `realigned: true`.
 *
 * Cost and cap: Myers' O((N+M)·D) shortest edit script, where N and M are the points after the
 * first divergence and D is the number of insertions plus deletions it needs; memory O(D²). It
 * stops at `maxEdits` (default 2,000) and then leaves the diff positional, saying why in
 * `RealignInfo.reason`. The positional prefix is never recomputed, and the default (positional)
 * path never runs any of this. jsondiffpatch's LCS is a quadratic table and not public API, hence
 * this small implementation.
 */
import { canonicalJson } from "../journal/canonical";
import type { DecisionPoint } from "./decisions";
import { compareAt, onlyIn, type ComparedEntry, type DiffEntry } from "./compare";

export const REALIGN_MAX_EDITS = 2000;

export interface RealignInfo {
  applied: boolean;
  /** Where realignment started: the positional diff's first divergence. */
  from: number | null;
  /** Insertions plus deletions of the edit script, when one was found within the cap. */
  edits?: number;
  maxEdits: number;
  reason?: string;
}

/** What the positional comparison compares, as one string. */
export function signature(point: DecisionPoint): string {
  if (point.kind === "model") {
    let text = `m\u0000${point.text}`;
    for (const call of point.toolCalls) text += `\u0000${call.toolName}\u0001${call.argsHash}`;
    return text;
  }
  return `t\u0000${point.toolName}\u0000${point.status}\u0000${point.argsHash}\u0000${canonicalJson(point.output)}`;
}

type Op = { type: "equal"; a: number; b: number } | { type: "delete"; a: number } | { type: "insert"; b: number };

/** Myers' greedy shortest edit script from `a` to `b`, or undefined when it needs more than maxEdits. */
export function shortestEdit(a: ArrayLike<number>, b: ArrayLike<number>, maxEdits: number): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  // trace[d][k + d] = the furthest x reached on diagonal k (x - y) with d edits.
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= Math.min(n + m, maxEdits) && found < 0; d += 1) {
    const previous = trace[d - 1];
    const current = new Int32Array(2 * d + 1);
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (!previous) x = 0;
      else {
        const down = k === -d || (k !== d && (previous[k - 1 + d - 1] as number) < (previous[k + 1 + d - 1] as number));
        x = down ? (previous[k + 1 + d - 1] as number) : (previous[k - 1 + d - 1] as number) + 1;
      }
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      current[k + d] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    trace.push(current);
  }
  if (found < 0) return undefined;
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d -= 1) {
    const previous = trace[d - 1] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (previous[k - 1 + d - 1] as number) < (previous[k + 1 + d - 1] as number));
    const previousK = down ? k + 1 : k - 1;
    const previousX = previous[previousK + d - 1] as number;
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      x -= 1;
      y -= 1;
      ops.push({ type: "equal", a: x, b: y });
    }
    if (down) ops.push({ type: "insert", b: previousY });
    else ops.push({ type: "delete", a: previousX });
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) {
    x -= 1;
    y -= 1;
    ops.push({ type: "equal", a: x, b: y });
  }
  return ops.reverse();
}

/** Realigns `positional` after `divergentAt`; `steps` is undefined when it was not applied. */
export function realignTail(
  positional: readonly DiffEntry[],
  pointsA: readonly DecisionPoint[],
  pointsB: readonly DecisionPoint[],
  divergentAt: number | null,
  maxEdits: number,
): { steps?: DiffEntry[]; info: RealignInfo } {
  if (divergentAt === null) return { info: { applied: false, from: null, maxEdits, reason: "the runs do not diverge" } };
  const tailA = pointsA.slice(divergentAt);
  const tailB = pointsB.slice(divergentAt);
  const ids = new Map<string, number>();
  const code = (point: DecisionPoint) => {
    const key = signature(point);
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    return id;
  };
  const ops = shortestEdit(Int32Array.from(tailA, code), Int32Array.from(tailB, code), maxEdits);
  if (!ops) {
    return {
      info: { applied: false, from: divergentAt, maxEdits, reason: `more than ${maxEdits} insertions and deletions after the first divergence: the diff stays positional` },
    };
  }
  const steps = positional.slice(0, divergentAt);
  // compareAt and onlyIn make a fresh entry each time: marking it in place is safe.
  const push = (entry: ComparedEntry) => {
    entry.realigned = true;
    steps.push(entry);
  };
  let deleted: DecisionPoint[] = [];
  let inserted: DecisionPoint[] = [];
  const flush = () => {
    const paired = Math.min(deleted.length, inserted.length);
    for (let index = 0; index < paired; index += 1) push(compareAt(steps.length, deleted[index] as DecisionPoint, inserted[index] as DecisionPoint));
    for (const point of deleted.slice(paired)) push(onlyIn(steps.length, point, "A"));
    for (const point of inserted.slice(paired)) push(onlyIn(steps.length, point, "B"));
    deleted = [];
    inserted = [];
  };
  let edits = 0;
  for (const op of ops) {
    if (op.type === "equal") {
      flush();
      push(compareAt(steps.length, tailA[op.a] as DecisionPoint, tailB[op.b] as DecisionPoint));
    } else if (op.type === "delete") {
      edits += 1;
      deleted.push(tailA[op.a] as DecisionPoint);
    } else {
      edits += 1;
      inserted.push(tailB[op.b] as DecisionPoint);
    }
  }
  flush();
  return { steps, info: { applied: true, from: divergentAt, edits, maxEdits } };
}
