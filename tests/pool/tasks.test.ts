/**
 * The pool's tasks as pure functions (run in this thread): what they build packed is what the
 * plain projections build. Packed lists decode to what was packed; chunks of a run strung together
 * are the run's timeline whatever the page size; the diff folded page by page through a port is
 * diffRecords' RunDiff.
 */
import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { bigRunRecords } from "@/bench/big-runs";
import { diffRecords } from "@/lib/inspect/diff";
import { outline } from "@/lib/inspect/outline";
import { ChunkedTimeline, outlineChunk } from "@/lib/inspect/outline-chunk";
import { packDiff } from "@/lib/inspect/packed-diff";
import { PackedItems, packList, packedItem, packedItems, unpackList } from "@/lib/inspect/packed";
import { summaryAt, timelineOf } from "@/lib/inspect/timeline";
import { pageOf } from "@/lib/journal/page";
import type { JournalRecord } from "@/lib/journal/types";
import { diffRuns, outlinePage, type DiffMessage } from "@/lib/pool/tasks";
import { timelineFacts } from "../helpers/timelines";

function stamped(records: ReturnType<typeof bigRunRecords>): JournalRecord[] {
  return records.map((record) => ({ ...record, createdAt: "2026-12-01T00:00:00.000Z" })) as JournalRecord[];
}

describe("packed lists", () => {
  const items = [{ text: "café → bar", n: 1 }, "plain", null, [1, 2, { deep: 'She said "hi"\n' }], 12.5, { "": "" }];

  it("give back every item, one at a time or a window at a time", () => {
    const list = packList(items);
    expect(list.count).toBe(items.length);
    expect(unpackList(list)).toEqual(items);
    items.forEach((item, index) => expect(packedItem(list, index)).toEqual(item));
    expect(packedItems(list, 2, 4)).toEqual(items.slice(2, 4));
    expect(packedItems(list, 4, 99)).toEqual(items.slice(4));
    expect(packedItems(list, 3, 3)).toEqual([]);
    expect(unpackList(packList([]))).toEqual([]);
  });

  it("are shared memory, and read as one list across several", () => {
    const first = packList(["a", "b"]);
    expect(first.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    const all = new PackedItems<string>([first, packList([]), packList(["c"]), packList(["d", "e"])]);
    expect(all.length).toBe(5);
    expect(all.slice(0, 5)).toEqual(["a", "b", "c", "d", "e"]);
    expect(all.slice(1, 4)).toEqual(["b", "c", "d"]);
    expect([all.at(2), all.at(4), all.at(5), all.at(-1)]).toEqual(["c", "e", undefined, undefined]);
  });
});

describe("outline chunks", () => {
  const records = stamped(bigRunRecords("chunks", 12_345));
  const whole = timelineOf(outline(records));

  it.each([1_000, 4_096, 20_000])("strung together from pages of %i are the run's timeline", (size) => {
    const timeline = new ChunkedTimeline();
    for (let from = 0; from < records.length; from += size) {
      const chunk = outlinePage({ runId: "chunks", page: pageOf(records.slice(from, from + size)), totals: timeline.totals });
      expect(chunk.records).toBe(Math.min(size, records.length - from));
      expect(timeline.append(chunk)).toBe(true);
    }
    const view = timeline.view();
    expect(timelineFacts(view)).toEqual(timelineFacts(whole));
    for (const at of [0, 1, 999, 1_000, 6_000, records.length - 1]) expect(summaryAt(view, at)).toEqual(summaryAt(whole, at));
    expect(view.entries.slice(990, 1_010)).toEqual(whole.entries.slice(990, 1_010));
  });

  it("stop at a gap in the seqs, and a view taken earlier is unchanged by later chunks", () => {
    const timeline = new ChunkedTimeline();
    timeline.append(outlineChunk(records.slice(0, 100)));
    const early = timeline.view();
    const gapped = outlineChunk([...records.slice(100, 150), ...records.slice(151, 200)], timeline.totals);
    expect(gapped).toMatchObject({ gap: true, count: 50 });
    // A chunk that does not follow the last is refused whole.
    expect(timeline.append(outlineChunk(records.slice(150, 200), { ...timeline.totals, steps: 150 }))).toBe(false);
    expect(timeline.append(outlineChunk(records.slice(100, 5_000), timeline.totals))).toBe(true);
    expect(early.entries.length).toBe(100);
    expect(early.inputTokens.length).toBe(100);
    expect(timelineFacts(early)).toEqual(timelineFacts(timelineOf(outline(records.slice(0, 100)))));
    expect(timelineFacts(timeline.view())).toEqual(timelineFacts(timelineOf(outline(records.slice(0, 5_000)))));
  });
});

/** diffRuns fed through a real port, pages of `size` records of each side, as the server feeds it. */
async function pagedDiff(a: JournalRecord[], b: JournalRecord[], size: number, realign: boolean) {
  const { port1, port2 } = new MessageChannel();
  const diff = diffRuns({ a: "a", b: "b", realign, port: port2 });
  let acknowledged = 0;
  port1.on("message", () => (acknowledged += 1));
  let sent = 0;
  for (const [side, records] of [["A", a] as const, ["B", b] as const]) {
    for (let from = 0; from < records.length; from += size) {
      port1.postMessage({ side, page: new TextEncoder().encode(pageOf(records.slice(from, from + size))) } satisfies DiffMessage);
      sent += 1;
    }
  }
  port1.postMessage({ end: true } satisfies DiffMessage);
  const result = await diff;
  // Acknowledgements are messages: they arrive in later turns of this thread's loop.
  for (let turn = 0; turn < 100 && acknowledged < sent; turn += 1) await new Promise((resume) => setTimeout(resume, 5));
  port1.close();
  return { result, sent, acknowledged };
}

describe("the diff task", () => {
  const a = stamped(bigRunRecords("a", 30_000));
  const b = stamped(bigRunRecords("b", 29_000, 3_000));

  it.each([false, true])("folds pages through its port into diffRecords' diff, packed (realign %s)", async (realign) => {
    const { result, sent, acknowledged } = await pagedDiff(a, b, 4_000, realign);
    const expected = packDiff(diffRecords(a, b, { a: "a", b: "b", realign }));
    expect(result.head).toEqual(expected.head);
    expect(result.rows).toEqual(expected.rows);
    expect(unpackList(result.entries)).toEqual(unpackList(expected.entries));
    expect(result.head.divergentAt).not.toBeNull();
    expect(acknowledged).toBe(sent);
  });
});
