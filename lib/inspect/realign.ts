/**
 * Opt-in realignment of a diff after its first divergence: the longest common subsequence of the
 * two runs' remaining decision points, where two points are equal exactly when the positional
 * comparison calls them `same` (compare.ts's samePoint). Matched points become `same` entries, and
 * between two matches A's extra points pair with B's as `changed`, the rest are `missing` /
 * `added`. Every entry it places is marked `realigned: true`.
 *
 * Each point gets a number, equal for equal points: points are found by a hash of what the
 * comparison compares (canonicalHash: no text, no sha256), and points with one hash are told apart
 * by samePoint, so a collision never makes two different points equal.
 *
 * Cost and cap: Myers' O((N+M)·D) shortest edit script, where N and M are the points after the
 * first divergence and D is the number of insertions plus deletions it needs; memory O(D²). It
 * stops at `maxEdits` (default 2,000) and then leaves the diff positional, saying why in
 * `RealignInfo.reason`. Only the prefix up to the first divergence is compared before the tail is
 * realigned (no positional tail is built), and the default (positional) path never runs any of this. jsondiffpatch's LCS is a quadratic table and not public API, hence
 * this small implementation.
 */
import { callArgs, callName, nextCall, type ContentPart, type Point } from "./decision-points";
import { ComparedEntry, compareAt, onlyIn, samePoint, type DiffEntry } from "./compare";
import { canonicalHash, mixHash } from "./equal";

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

/** A hash of what the positional comparison compares: equal for points samePoint calls the same. */
export function pointHash(point: Point): number {
  if (point.kind === "model") {
    let hash = mixHash(canonicalHash(point.text), point.calls);
    for (let at = nextCall(point.content, 0); at >= 0; at = nextCall(point.content, at + 1)) {
      const part = point.content[at] as ContentPart;
      hash = mixHash(mixHash(hash, canonicalHash(callName(part))), canonicalHash(callArgs(part)));
    }
    return hash;
  }
  const hash = mixHash(mixHash(canonicalHash(point.toolName), canonicalHash(point.status)), canonicalHash(point.args));
  return mixHash(mixHash(hash, canonicalHash(point.output)), 1);
}

/**
 * Numbers the points of both tails by equality (samePoint): the same number for equal points, in
 * both runs. An open-addressing table of hashes (linear probing) finds a point's candidates; a
 * typed array allocates nothing per point, where a Map of 200,000 entries kept the collector busy.
 */
function pointCodes(tailA: readonly Point[], tailB: readonly Point[]): [Int32Array, Int32Array] {
  const count = tailA.length + tailB.length;
  let size = 16;
  while (size < 2 * count) size *= 2;
  const mask = size - 1;
  // slots[i]: a code + 1, or 0 when empty; a code's hash and first point are hashes[code] and points[code].
  const slots = new Int32Array(size);
  const hashes = new Int32Array(count);
  const points: Point[] = [];
  const code = (point: Point): number => {
    const hash = pointHash(point) | 0;
    let slot = hash & mask;
    for (let taken = slots[slot] as number; taken !== 0; slot = (slot + 1) & mask, taken = slots[slot] as number) {
      if (hashes[taken - 1] === hash && samePoint(points[taken - 1] as Point, point)) return taken - 1;
    }
    const fresh = points.length;
    points.push(point);
    hashes[fresh] = hash;
    slots[slot] = fresh + 1;
    return fresh;
  };
  return [Int32Array.from(tailA, code), Int32Array.from(tailB, code)];
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

/** The first index where the two sequences' points are not the same (by position); null when there is none. */
function firstDivergence(pointsA: readonly Point[], pointsB: readonly Point[]): number | null {
  const shorter = Math.min(pointsA.length, pointsB.length);
  for (let index = 0; index < shorter; index += 1) if (!samePoint(pointsA[index] as Point, pointsB[index] as Point)) return index;
  return pointsA.length === pointsB.length ? null : shorter;
}

/**
 * The diff realigned after the positional diff's first divergence; `steps` is undefined when it
 * was not applied (the caller then diffs by position, comparing the same prefix again).
 */
export function realignTail(pointsA: readonly Point[], pointsB: readonly Point[], maxEdits: number): { steps?: DiffEntry[]; info: RealignInfo } {
  const divergentAt = firstDivergence(pointsA, pointsB);
  if (divergentAt === null) return { info: { applied: false, from: null, maxEdits, reason: "the runs do not diverge" } };
  const tailA = pointsA.slice(divergentAt);
  const tailB = pointsB.slice(divergentAt);
  const [codesA, codesB] = pointCodes(tailA, tailB);
  const ops = shortestEdit(codesA, codesB, maxEdits);
  if (!ops) {
    return {
      info: { applied: false, from: divergentAt, maxEdits, reason: `more than ${maxEdits} insertions and deletions after the first divergence: the diff stays positional` },
    };
  }
  // The prefix is positional and the same throughout; what follows is realigned.
  const steps: DiffEntry[] = [];
  for (let index = 0; index < divergentAt; index += 1) steps.push(new ComparedEntry(index, "same", pointsA[index], pointsB[index]));
  const push = (entry: ComparedEntry) => {
    entry.realigned = true;
    steps.push(entry);
  };
  const deleted: Point[] = [];
  const inserted: Point[] = [];
  const flush = () => {
    if (deleted.length === 0 && inserted.length === 0) return;
    const paired = Math.min(deleted.length, inserted.length);
    for (let index = 0; index < paired; index += 1) push(compareAt(steps.length, deleted[index] as Point, inserted[index] as Point));
    for (let index = paired; index < deleted.length; index += 1) push(onlyIn(steps.length, deleted[index] as Point, "A"));
    for (let index = paired; index < inserted.length; index += 1) push(onlyIn(steps.length, inserted[index] as Point, "B"));
    deleted.length = 0;
    inserted.length = 0;
  };
  let edits = 0;
  for (const op of ops) {
    if (op.type === "equal") {
      flush();
      // Equal codes are samePoint points: no need to compare them again.
      push(new ComparedEntry(steps.length, "same", tailA[op.a], tailB[op.b]));
    } else if (op.type === "delete") {
      edits += 1;
      deleted.push(tailA[op.a] as Point);
    } else {
      edits += 1;
      inserted.push(tailB[op.b] as Point);
    }
  }
  flush();
  return { steps, info: { applied: true, from: divergentAt, edits, maxEdits } };
}
