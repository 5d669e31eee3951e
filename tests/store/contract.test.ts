/**
 * The store contract: one suite, three stores (MemStore, embedded PGlite, the PostgreSQL server).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBacktrackError, PayloadTooLargeError } from "@/lib/journal/errors";
import type { Journal } from "@/lib/journal/ports";
import type { JournalNotification, RecordKind } from "@/lib/journal/types";
import { STORE_KINDS } from "../helpers/databases";

const HOSTILE = `<script>alert("x")</script> ]) --> n0["pwn"] %% \`md\` &amp; 'quote' — ünïcödé 🦀`;

describe.each(STORE_KINDS)("store contract: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };

  beforeAll(async () => {
    store = await kind.open({ payloadLimitBytes: 64 * 1024 });
  });
  afterAll(async () => {
    await store.close();
  });

  it("numbers records densely from 0 in append order", async () => {
    const runId = "dense";
    for (const name of ["a", "b", "c"]) await store.append({ runId, name, kind: "value", payload: { name } });
    const history = await store.history(runId);
    expect(history.map((record) => [record.seq, record.name])).toEqual([
      [0, "a"],
      [1, "b"],
      [2, "c"],
    ]);
    expect(history.every((record) => !Number.isNaN(Date.parse(record.createdAt)))).toBe(true);
  });

  it("hands back a record's time as canonical ISO text in UTC, the same on append, history and lookup", async () => {
    const before = Date.now();
    const appended = await store.append({ runId: "times", name: "a", kind: "value", payload: 1 });
    const [read] = await store.history("times");
    const lookedUp = await store.record("times", "a");
    const text = appended.record.createdAt;
    expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(new Date(text).toISOString()).toBe(text);
    expect(Date.parse(text)).toBeGreaterThanOrEqual(before - 5_000);
    expect(Date.parse(text)).toBeLessThanOrEqual(Date.now() + 5_000);
    expect([read?.createdAt, lookedUp?.createdAt]).toEqual([text, text]);
  });

  it("reads only the kinds and the window of seqs asked for, in seq order, and leaves the name cache alone", async () => {
    const runId = "kinds";
    const kinds: RecordKind[] = ["header", "model", "attempt", "tool_result", "value", "model", "attempt", "tool_result", "approval", "model"];
    for (const [index, kind] of kinds.entries()) await store.append({ runId, name: `r${index}`, kind, payload: { index } });
    const decisions = await store.history(runId, { kinds: ["model", "tool_result", "approval"] });
    expect(decisions.map((record) => [record.seq, record.kind])).toEqual([
      [1, "model"],
      [3, "tool_result"],
      [5, "model"],
      [7, "tool_result"],
      [8, "approval"],
      [9, "model"],
    ]);
    const page = await store.history(runId, { kinds: ["model", "tool_result", "approval"], from: 4, limit: 2 });
    expect(page.map((record) => record.seq)).toEqual([5, 7]);
    expect(await store.history(runId, { kinds: [] })).toEqual([]);
    // A window of seqs, alone or with kinds; a limit counts the records the kinds keep.
    expect((await store.history(runId, { from: 2, before: 6 })).map((record) => record.seq)).toEqual([2, 3, 4, 5]);
    expect((await store.history(runId, { from: 2, before: 9, kinds: ["model", "approval"] })).map((record) => record.seq)).toEqual([5, 8]);
    expect((await store.history(runId, { from: 0, limit: 3, kinds: ["tool_result", "model"] })).map((record) => record.seq)).toEqual([1, 3, 5]);
    expect((await store.history(runId, { from: 8, limit: 5 })).map((record) => record.seq)).toEqual([8, 9]);
    expect(await store.history(runId, { from: 4, before: 4 })).toEqual([]);
    // A filtered read is not the run: a do of a name it left out still finds the stored record.
    expect(await store.do(runId, "r2", () => ({ index: "again" }))).toEqual({ index: 2 });
    expect((await store.history(runId)).map((record) => record.seq)).toEqual(kinds.map((_, index) => index));
  });

  it("keeps the first writer of a name and hands its record to a later writer, without a seq gap", async () => {
    const runId = "first-writer";
    const first = await store.append({ runId, name: "step", kind: "value", payload: { v: 1 } });
    const second = await store.append({ runId, name: "step", kind: "value", payload: { v: 2 } });
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.record.payload).toEqual({ v: 1 });
    const third = await store.append({ runId, name: "next", kind: "value", payload: null });
    expect(third.record.seq).toBe(1);
    expect((await store.history(runId)).length).toBe(2);
  });

  it("memoizes do: runs fn once, returns the recorded value after", async () => {
    let calls = 0;
    const work = async () => {
      calls += 1;
      return { answer: 42, calls };
    };
    const one = await store.do("memo", "compute", work);
    const two = await store.do("memo", "compute", work);
    expect(one).toEqual({ answer: 42, calls: 1 });
    expect(two).toEqual(one);
    expect(calls).toBe(1);
    expect((await store.record("memo", "compute"))?.kind).toBe("value");
  });

  it("hands a later do the journaled value, not the object its first caller went on to change", async () => {
    const first = await store.do("memo-owned", "plan", () => ({ steps: ["read", "write"] }));
    first.steps.push("changed after the step");
    const again = await store.do("memo-owned", "plan", () => ({ steps: ["never run"] }));
    expect(again).toEqual({ steps: ["read", "write"] });
    expect((await store.record("memo-owned", "plan"))?.payload).toEqual({ steps: ["read", "write"] });
  });

  it("round-trips payloads exactly: strings, numbers, nulls, nesting, hostile text", async () => {
    const payloads = ["a plain string", 12.5, null, true, [1, [2, { three: 3 }]], { html: HOSTILE, nested: { keep: "order", a: 1 } }];
    for (const [index, payload] of payloads.entries()) await store.append({ runId: "payloads", name: `p${index}`, kind: "value", payload });
    const history = await store.history("payloads");
    expect(history.map((record) => record.payload)).toEqual(payloads);
    expect(JSON.stringify(history.at(-1)?.payload)).toBe(JSON.stringify(payloads.at(-1)));
  });

  it("pages history with from and limit", async () => {
    for (let index = 0; index < 10; index += 1) await store.append({ runId: "paged", name: `r${index}`, kind: "value", payload: index });
    const page = await store.history("paged", { from: 4, limit: 3 });
    expect(page.map((record) => record.seq)).toEqual([4, 5, 6]);
    expect(await store.history("paged", { from: 20 })).toEqual([]);
  });

  it("refuses a payload over the limit with a typed error and writes nothing", async () => {
    await store.append({ runId: "big", name: "small", kind: "value", payload: "ok" });
    const error = await store.append({ runId: "big", name: "huge", kind: "value", payload: "x".repeat(70 * 1024) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(isBacktrackError(error, "payload_too_large")).toBe(true);
    expect((error as PayloadTooLargeError).limitBytes).toBe(64 * 1024);
    expect((await store.history("big")).map((record) => record.name)).toEqual(["small"]);
    expect((await store.run("big"))?.recordCount).toBe(1);
  });

  it("refuses malformed ids with a typed error", async () => {
    for (const bad of [
      { runId: "", name: "x" },
      { runId: "r", name: "" },
      { runId: "r\u0000", name: "x" },
      { runId: "r".repeat(300), name: "x" },
    ]) {
      const error = await store.append({ ...bad, kind: "value", payload: 1 }).catch((caught: unknown) => caught);
      expect(isBacktrackError(error, "bad_input")).toBe(true);
    }
  });

  it("keeps a summary row: agent, input, counts, usage, status", async () => {
    const runId = "summarised";
    await store.append({ runId, name: "run:start", kind: "header", payload: { input: "hello there", agent: "greeter", model: "m", tools: [] } });
    await store.append({ runId, name: "turn:0", kind: "model", payload: { message: { role: "assistant", content: [] }, usage: { inputTokens: 10, outputTokens: 3 } } });
    await store.append({ runId, name: "turn:0:call:0:result", kind: "tool_result", payload: { toolName: "t", isError: false } });
    let summary = await store.run(runId);
    expect(summary).toMatchObject({
      agent: "greeter",
      inputText: "hello there",
      status: "running",
      recordCount: 3,
      lastSeq: 2,
      modelTurns: 1,
      toolCalls: 1,
      inputTokens: 10,
      outputTokens: 3,
      completedAt: null,
    });
    await store.append({ runId, name: "run:complete", kind: "value", payload: { value: { text: "bye" } } });
    summary = await store.run(runId);
    expect(summary?.status).toBe("complete");
    expect(summary?.completedAt).not.toBeNull();
    expect(await store.run("no-such-run")).toBeUndefined();
  });

  it("records pauses and failures as status changes", async () => {
    const runId = "paused-run";
    await store.append({ runId, name: "run:start", kind: "header", payload: { input: "x", agent: "a" } });
    await store.setStatus(runId, { status: "paused", pause: { reason: "approval", runId, name: "turn:0:call:0:approval", message: "waits" } });
    expect(await store.run(runId)).toMatchObject({ status: "paused", pause: { reason: "approval", name: "turn:0:call:0:approval" } });
    await store.append({ runId, name: "turn:0:call:0:approval", kind: "approval", payload: { approved: true } });
    expect(await store.run(runId)).toMatchObject({ status: "running", pause: null });
    await store.setStatus(runId, { status: "failed", error: "model unavailable" });
    expect(await store.run(runId)).toMatchObject({ status: "failed", error: "model unavailable" });
    // Any later record means the run goes on: a value record too, though it changes no count.
    await store.append({ runId, name: "retry-note", kind: "value", payload: { retried: true } });
    expect(await store.run(runId)).toMatchObject({ status: "running", error: null, recordCount: 3, lastSeq: 2 });
  });

  it("keeps a run's length and last activity as value records are added", async () => {
    const runId = "lengthening";
    await store.append({ runId, name: "run:start", kind: "header", payload: { input: "count", agent: "counter" } });
    for (let index = 0; index < 5; index += 1) await store.append({ runId, name: `v${index}`, kind: "value", payload: index });
    const { record: last } = await store.append({ runId, name: "attempt", kind: "attempt", payload: {} });
    const summary = await store.run(runId);
    expect(summary).toMatchObject({ recordCount: 7, lastSeq: 6, modelTurns: 0, status: "running" });
    expect(Date.parse(summary!.updatedAt)).toBeGreaterThanOrEqual(Date.parse(last.createdAt));
    const listed = (await store.runs({ search: "lengthening" })).runs[0];
    expect(listed).toMatchObject({ runId, recordCount: 7, lastSeq: 6 });
  });

  it("gives one process's concurrent appends to a run their seqs in call order", async () => {
    const runId = "in-order";
    await store.append({ runId, name: "first", kind: "value", payload: 0 });
    const results = await Promise.all(Array.from({ length: 10 }, (_, index) => store.append({ runId, name: `n${index}`, kind: "value", payload: index })));
    expect(results.map((result) => result.record.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("stores a record of an unknown kind and reads it back as such", async () => {
    await store.append({ runId: "foreign", name: "x", kind: "telemetry" as RecordKind, payload: { cpu: 3 } });
    expect((await store.history("foreign"))[0]?.kind).toBe("telemetry");
  });

  it("lists runs newest first, filtered, with keyset pages that cover every run once", async () => {
    for (let index = 0; index < 7; index += 1) {
      const runId = `list-${index}`;
      await store.append({ runId, name: "run:start", kind: "header", payload: { input: `find me ${index % 2 === 0 ? "even" : "odd"}`, agent: index < 4 ? "alpha" : "beta" } });
      if (index % 3 === 0) await store.append({ runId, name: "run:complete", kind: "value", payload: { value: null } });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.runs({ search: "list-", limit: 3, cursor });
      seen.push(...page.runs.map((run) => run.runId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(["list-6", "list-5", "list-4", "list-3", "list-2", "list-1", "list-0"]);
    expect((await store.runs({ agent: "beta", search: "list-" })).runs.map((run) => run.runId)).toEqual(["list-6", "list-5", "list-4"]);
    expect((await store.runs({ status: "complete", search: "list-" })).runs.map((run) => run.runId)).toEqual(["list-6", "list-3", "list-0"]);
    expect((await store.runs({ search: "FIND ME EVEN" })).runs.map((run) => run.runId)).toEqual(["list-6", "list-4", "list-2", "list-0"]);
    expect((await store.runs({ search: "100%_" })).runs).toEqual([]);
  });

  it("notifies listeners after appends and status changes", async () => {
    const notes: JournalNotification[] = [];
    const stop = await store.subscribe((note) => {
      if (note.runId === "watched") notes.push(note);
    });
    await store.append({ runId: "watched", name: "a", kind: "value", payload: 1 });
    await store.setStatus("watched", { status: "failed", error: "boom" });
    await expect.poll(() => notes.length, { timeout: 5_000 }).toBe(2);
    expect(notes[0]).toMatchObject({ runId: "watched", seq: 0, kind: "value", status: "running" });
    expect(notes[1]).toMatchObject({ runId: "watched", seq: -1, status: "failed" });
    await stop();
  });
});
