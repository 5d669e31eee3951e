/**
 * Issue 12 item 14: a server building a big run's projections cold (the diff's decision points,
 * the timeline) keeps answering meanwhile. The projections in slices are the same projections,
 * and between slices a timer fires. The bound is relative, so that the machine's speed does not
 * decide the test: the longest stretch without a tick stays under half of what the same work takes
 * in one synchronous go (pointsOf of one run, timelineOf), which is what a cold build used to hold
 * the thread for; the garbage collector's pauses are left out (they are not the build's to slice,
 * and one young-generation collection can take tens of milliseconds on a loaded machine).
 */
import { PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { bigRunRecords } from "@/bench/big-runs";
import { pointsInSlices, pointsOf } from "@/lib/inspect/decision-points";
import { diffRecords, diffRecordsInSlices } from "@/lib/inspect/diff";
import { outline } from "@/lib/inspect/outline";
import { extendTimelineInSlices, timelineOf } from "@/lib/inspect/timeline";
import type { JournalRecord } from "@/lib/journal/types";

const giveWay = () => new Promise<void>((resume) => setImmediate(resume));

function stamped(records: ReturnType<typeof bigRunRecords>): JournalRecord[] {
  return records.map((record) => ({ ...record, createdAt: "2026-12-01T00:00:00.000Z" })) as JournalRecord[];
}

/**
 * Runs `work` while a 1 ms interval ticks: the longest time without a tick, less the garbage
 * collector's pauses within it (they stop every thread of the process, sliced work or not).
 */
async function ticking<T>(work: () => Promise<T>): Promise<{ value: T; longestMs: number }> {
  const ticks = [performance.now()];
  const pauses: Array<{ startTime: number; duration: number }> = [];
  const collector = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  collector.observe({ entryTypes: ["gc"] });
  const timer = setInterval(() => ticks.push(performance.now()), 1);
  let value: T;
  try {
    value = await work();
    ticks.push(performance.now());
  } finally {
    clearInterval(timer);
  }
  // Entries arrive in a later task: wait for them.
  await new Promise((resume) => setTimeout(resume, 20));
  pauses.push(...collector.takeRecords());
  collector.disconnect();
  let longestMs = 0;
  for (let index = 1; index < ticks.length; index += 1) {
    const [from, to] = [ticks[index - 1]!, ticks[index]!];
    const collecting = pauses.reduce((sum, pause) => sum + Math.max(0, Math.min(to, pause.startTime + pause.duration) - Math.max(from, pause.startTime)), 0);
    longestMs = Math.max(longestMs, to - from - collecting);
  }
  return { value, longestMs };
}

describe("cold builds in slices", () => {
  const a = stamped(bigRunRecords("a", 200_000));
  const b = stamped(bigRunRecords("b", 200_000, 20_000));

  /** How long `work` takes in one synchronous go (the second of two runs: the first warms it up). */
  function syncMs(work: () => unknown): number {
    work();
    const started = performance.now();
    work();
    return performance.now() - started;
  }

  it("pointsInSlices reads the same points as pointsOf, in order or not", async () => {
    let pauses = 0;
    const pause = async () => {
      pauses += 1;
    };
    expect(await pointsInSlices(a, pause, 7_000)).toEqual(pointsOf(a));
    expect(pauses).toBe(Math.ceil(a.length / 7_000) - 1);
    // Results before their model step, and steps out of order: read, then regrouped by step.
    const shuffled = [...a.slice(0, 300)].reverse();
    expect(await pointsInSlices(shuffled, pause, 16)).toEqual(pointsOf(shuffled));
  });

  it("extendTimelineInSlices builds the same timeline as timelineOf, from scratch or from a part", async () => {
    const entries = outline(a.slice(0, 30_000));
    const whole = timelineOf(entries);
    expect(await extendTimelineInSlices(timelineOf([]), entries, giveWay, 4_000)).toEqual(whole);
    const part = timelineOf(entries.slice(0, 9_000));
    expect(await extendTimelineInSlices(part, entries.slice(5_000), giveWay, 4_000)).toEqual(whole);
    expect(part.entries).toHaveLength(9_000);
    // A gap in the seqs ends it, as extendTimeline does.
    const gapped = await extendTimelineInSlices(part, entries.slice(9_001), giveWay, 4_000);
    expect(gapped.entries).toHaveLength(9_000);
  });

  it("a cold diff of two big runs lets a timer fire throughout", async () => {
    const oneRunMs = syncMs(() => pointsOf(a));
    const { value, longestMs } = await ticking(() => diffRecordsInSlices(a, b, { a: "a", b: "b" }, giveWay));
    const whole = diffRecords(a, b, { a: "a", b: "b" });
    expect({ divergentAt: value.divergentAt, summary: value.summary, steps: value.steps.length }).toEqual({
      divergentAt: whole.divergentAt,
      summary: whole.summary,
      steps: whole.steps.length,
    });
    expect(value.divergentAt).not.toBeNull();
    expect(longestMs).toBeLessThan(oneRunMs / 2);
  });

  it("a diff in small slices is the same diff, in more pauses", async () => {
    let pauses = 0;
    const counted = () => {
      pauses += 1;
      return giveWay();
    };
    const small = await diffRecordsInSlices(a.slice(0, 20_000), b.slice(0, 20_000), { a: "a", b: "b" }, counted, 1_000);
    const smallPauses = pauses;
    pauses = 0;
    const large = await diffRecordsInSlices(a.slice(0, 20_000), b.slice(0, 20_000), { a: "a", b: "b" }, counted);
    expect(small).toEqual(large);
    expect(smallPauses).toBeGreaterThan(pauses * 3);
  });

  it("a cold timeline of a big run lets a timer fire throughout", async () => {
    const entries = outline(a);
    const wholeMs = syncMs(() => timelineOf(entries));
    const { value, longestMs } = await ticking(() => extendTimelineInSlices(timelineOf([]), entries, giveWay));
    expect(value.entries).toHaveLength(a.length);
    expect(longestMs).toBeLessThan(wholeMs / 2);
  });
});
