/**
 * Issue 12 item 14: no default answer of the HTTP API exceeds 5 MB, whatever a run weighs, and
 * following `next` reaches everything. Two runs of large payloads (about 9 MB of records each,
 * their state and diff well over 5 MB unpaged) on a fresh PostgreSQL database; the handlers run
 * for real.
 */
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Journal } from "@/lib/journal/ports";
import { freshServerDatabase } from "../helpers/databases";

vi.mock("server-only", () => ({}));

const LIMIT = 5 * 1024 * 1024;
const TURNS = 40;

/** header, then per turn a model step calling `work` with 50 KB of arguments and a 150 KB result. */
async function writeLargeRun(store: Journal, runId: string, flavour: string): Promise<void> {
  await store.append({ runId, name: "run:start", kind: "header", payload: { agent: "bulk", model: "demo/v1", tools: ["work"], input: "large" } });
  for (let turn = 0; turn < TURNS; turn += 1) {
    const args = { turn, blob: `${flavour}${turn}-`.padEnd(50_000, "a") };
    await store.append({
      runId,
      name: `turn:${turn}`,
      kind: "model",
      payload: { message: { role: "assistant", content: [{ type: "tool-call", toolCallId: `c${turn}`, toolName: "work", args }] }, usage: { inputTokens: 1, outputTokens: 1 } },
    });
    await store.append({
      runId,
      name: `turn:${turn}:call:0:result`,
      kind: "tool_result",
      payload: { toolName: "work", toolCallId: `c${turn}`, args, result: { out: `${flavour}${turn}-`.padEnd(150_000, "b") }, isError: false },
    });
  }
}

type Params<T> = { params: Promise<T> };
const params = <T>(value: T): Params<T> => ({ params: Promise.resolve(value) });
const none = params({});
const get = (path: string) => new NextRequest(`http://127.0.0.1${path}`);

async function body<T>(response: Response, where: string): Promise<T> {
  const text = await response.text();
  expect(response.status, `${where}: ${text.slice(0, 200)}`).toBe(200);
  expect(Buffer.byteLength(text), `${where} is ${Buffer.byteLength(text)} bytes`).toBeLessThanOrEqual(LIMIT);
  return JSON.parse(text) as T;
}

describe("bounded responses", () => {
  let drop: () => Promise<void>;
  const saved = { url: process.env.DATABASE_URL, demo: process.env.BACKTRACK_DEMO };

  beforeAll(async () => {
    const database = await freshServerDatabase();
    drop = database.drop;
    process.env.DATABASE_URL = database.url;
    process.env.BACKTRACK_DEMO = "0";
    const { getStore } = await import("@/app/_server/store");
    const store = await getStore();
    await writeLargeRun(store, "big-a", "A");
    await writeLargeRun(store, "big-b", "B");
  });

  afterAll(async () => {
    const { getStore } = await import("@/app/_server/store");
    await (await getStore()).close();
    await drop();
    process.env.DATABASE_URL = saved.url;
    process.env.BACKTRACK_DEMO = saved.demo;
  });

  it("records: each answer fits, and nextFrom reaches every record", async () => {
    const { GET } = await import("@/app/api/runs/[id]/records/route");
    const seqs: number[] = [];
    let path: string | null = "/api/runs/big-a/records";
    for (let round = 0; path !== null && round < 100; round += 1) {
      const page: { records: Array<{ seq: number }>; next: string | null } = await body(await GET(get(path), params({ id: "big-a" })), path);
      seqs.push(...page.records.map((record) => record.seq));
      path = page.next;
    }
    expect(seqs).toEqual(Array.from({ length: 1 + 2 * TURNS }, (_, seq) => seq));
  });

  it("state: the default answer fits, and next reaches the whole conversation", async () => {
    const { GET } = await import("@/app/api/runs/[id]/state/route");
    const seen: number[] = [];
    const results: number[] = [];
    let path: string | null = "/api/runs/big-a/state";
    let first: { state: { at: number; toolCalls: number; window: { conversationRecords: number } } } | undefined;
    for (let round = 0; path !== null && round < 100; round += 1) {
      const page: {
        state: { at: number; toolCalls: number; conversation: Array<{ seq: number }>; toolResults: Array<{ seq: number }>; window: { conversationRecords: number } };
        next: string | null;
      } = await body(await GET(get(path), params({ id: "big-a" })), path);
      first ??= page;
      seen.unshift(...new Set(page.state.conversation.map((item) => item.seq)));
      results.unshift(...page.state.toolResults.map((item) => item.seq));
      path = page.next;
    }
    expect(first!.state).toMatchObject({ at: 2 * TURNS, toolCalls: TURNS, window: { conversationRecords: 1 + 2 * TURNS } });
    expect(seen).toEqual(Array.from({ length: 1 + 2 * TURNS }, (_, seq) => seq));
    expect(results).toEqual(Array.from({ length: TURNS }, (_, turn) => 2 + 2 * turn));
  });

  it("diff and diff entries: each answer fits, and next reaches every entry", async () => {
    const diff = await import("@/app/api/diff/route");
    const entries = await import("@/app/api/diff/entries/route");
    const head: { steps: Array<{ index: number }>; stepsTotal: number; next: string | null; divergentAt: number | null } = await body(
      await diff.GET(get("/api/diff?a=big-a&b=big-b"), none),
      "/api/diff",
    );
    expect(head.divergentAt).toBe(0);
    expect(head.stepsTotal).toBe(2 * TURNS);
    const indexes = head.steps.map((step) => step.index);
    expect(head.next).not.toBeNull();
    let path: string | null = head.next;
    for (let round = 0; path !== null && round < 100; round += 1) {
      const page: { entries: Array<{ index: number }>; next: string | null } = await body(await entries.GET(get(path), none), path);
      indexes.push(...page.entries.map((entry) => entry.index));
      path = page.next;
    }
    expect(indexes).toEqual(Array.from({ length: 2 * TURNS }, (_, index) => index));
    // The diff page's own request (100 entries) is bounded too.
    await body(await entries.GET(get("/api/diff/entries?a=big-a&b=big-b&from=0&limit=100"), none), "/api/diff/entries");
  });

  it("outline: fits, and reaches every record", async () => {
    const { GET } = await import("@/app/api/runs/[id]/outline/route");
    const page: { entries: Array<{ seq: number }>; nextFrom: number | null } = await body(await GET(get("/api/runs/big-a/outline"), params({ id: "big-a" })), "outline");
    expect(page.entries).toHaveLength(1 + 2 * TURNS);
    expect(page.nextFrom).toBeNull();
  });

  it("search and the run's shape: fit, pages of hits reach every hit, bad queries are 400s", async () => {
    const { GET } = await import("@/app/api/runs/[id]/search/route");
    const hits: number[] = [];
    let cursor: number | null = null;
    for (let round = 0; round < 100; round += 1) {
      const path: string = `/api/runs/big-a/search?q=%2Fa%2F&limit=7${cursor === null ? "" : `&cursor=${cursor}`}`;
      const page: { total: number; seqs: number[]; hits: Array<{ seq: number; excerpt: string }>; nextCursor: number | null } = await body(
        await GET(get(path), params({ id: "big-a" })),
        path,
      );
      expect(page.total).toBe(1 + 2 * TURNS);
      expect(page.seqs).toHaveLength(1 + 2 * TURNS);
      for (const hit of page.hits) expect(hit.excerpt.length).toBeLessThan(200);
      hits.push(...page.hits.map((hit) => hit.seq));
      cursor = page.nextCursor;
      if (cursor === null) break;
    }
    expect(hits).toEqual(Array.from({ length: 1 + 2 * TURNS }, (_, seq) => seq));
    expect((await GET(get("/api/runs/big-a/search?q=%2F(a%2B)%2B%2F"), params({ id: "big-a" }))).status).toBe(400);
    expect((await GET(get("/api/runs/big-a/search?q="), params({ id: "big-a" }))).status).toBe(400);
    expect((await GET(get("/api/runs/nope/search?q=a"), params({ id: "nope" }))).status).toBe(404);
    const shape = await import("@/app/api/runs/[id]/aggregate/route");
    const answer: { graph: { nodes: Array<{ label: string; count: number }> } } = await body(
      await shape.GET(get("/api/runs/big-a/aggregate"), params({ id: "big-a" })),
      "aggregate",
    );
    expect(answer.graph.nodes.map((node) => [node.label, node.count])).toEqual([
      ["LLM", TURNS],
      ["tool: work", TURNS],
    ]);
  });
});
