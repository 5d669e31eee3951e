/** Search inside a run: the matcher, its safe regular expressions, redaction first, the server's pool tasks over every store's pages, and the CLI. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditorAgent, billingAgent } from "@/lib/demo/agents";
import { isBacktrackError } from "@/lib/journal/errors";
import { pageOf } from "@/lib/journal/page";
import { isPageReader, type Journal } from "@/lib/journal/ports";
import type { JournalRecord } from "@/lib/journal/types";
import { search, searchPage, type SearchChunk } from "@/lib/pool/tasks";
import { REDACTED } from "@/lib/inspect/redact";
import { parseSearchQuery, searchRecords, searchSource, SearchQueryError, SearchTimeoutError, type SearchSource } from "@/lib/inspect/search";
import { runMain } from "../helpers/cli";
import { embeddedFolder, STORE_KINDS } from "../helpers/databases";

function record(seq: number, name: string, kind: string, payload: unknown): JournalRecord {
  return { runId: "r", seq, name, kind, payload, createdAt: "2026-01-01T00:00:00.000Z" } as JournalRecord;
}

const RECORDS = [
  record(0, "run:start", "header", { input: "Audit the Accounts", agent: "auditor" }),
  record(1, "turn:0", "model", { message: { role: "assistant", content: [{ type: "tool-call", toolName: "checkAccount", args: { accountId: "acct-279" } }] } }),
  record(2, "turn:0:call:0:result", "tool_result", { toolName: "checkAccount", args: { accountId: "acct-279" }, result: { balance: 12 }, isError: false }),
  record(3, "turn:1", "model", { message: { role: "assistant", content: [{ type: "text", text: "Fetching with api_key=hunter2hunter2 now" }] } }),
  record(4, "turn:1:call:0:result", "tool_result", { toolName: "login", args: { password: "correct-horse-battery" }, result: "ok", isError: true }),
];

describe("search matcher", () => {
  it("matches a case-insensitive substring in names, kinds, text, arguments and results", () => {
    const result = searchRecords(RECORDS, "ACCT-279");
    expect(result).toMatchObject({ total: 2, seqs: [1, 2], regex: false, nextCursor: null });
    expect(result.hits[0]).toMatchObject({ seq: 1, name: "turn:0", kind: "model" });
    const hit = result.hits[0]!;
    expect(hit.excerpt.slice(hit.matchStart, hit.matchEnd)).toBe("acct-279");
    expect(searchRecords(RECORDS, "tool_result").seqs).toEqual([2, 4]);
    expect(searchRecords(RECORDS, "audit the accounts").seqs).toEqual([0]);
    // Special characters are literal in a substring query.
    expect(searchRecords(RECORDS, "acct-2.9").total).toBe(0);
  });

  it("matches a /regular expression/", () => {
    expect(searchRecords(RECORDS, "/acct-2[0-9]{2}/").seqs).toEqual([1, 2]);
    expect(searchRecords(RECORDS, '/"isError":true/i').seqs).toEqual([4]);
    expect(searchRecords(RECORDS, "/(?:check)+Account/").seqs).toEqual([1, 2]);
  });

  it("never finds, counts or quotes a redacted value", () => {
    expect(searchRecords(RECORDS, "hunter2").total).toBe(0);
    expect(searchRecords(RECORDS, "correct-horse").total).toBe(0);
    expect(searchRecords(RECORDS, "/horse|hunter/").total).toBe(0);
    // What names the secret is still found, with the secret masked in the excerpt.
    const named = searchRecords(RECORDS, "api_key");
    expect(named.seqs).toEqual([3]);
    expect(named.hits[0]!.excerpt).toContain(REDACTED);
    expect(named.hits[0]!.excerpt).not.toContain("hunter2");
  });

  it("refuses empty, overlong and unsafe or invalid patterns with a typed error", () => {
    for (const query of ["", "   ", "x".repeat(501), "/(a+)+$/", "/(a|aa)*b/", "/(x*)*/", "/(a)\\1/", "/(?=a)b/", "/(?<!a)b/", "/[unclosed/"]) {
      let caught: unknown;
      try {
        parseSearchQuery(query);
      } catch (error) {
        caught = error;
      }
      expect(caught, query).toBeInstanceOf(SearchQueryError);
      expect(isBacktrackError(caught) && caught.code).toBe("bad_input");
      expect((caught as SearchQueryError).query).toBe(query);
    }
    // Safe ones pass: a quantified group of plain characters, classes holding quantifier signs, alternation unquantified.
    for (const query of ["/(ab)+c/", "/[+*?]+/", "/foo|bar/", "/(?<word>ab)c/"]) expect(parseSearchQuery(query).regex, query).toBe(true);
  });

  it("pages hits after a cursor while counting and listing every hit", () => {
    const result = searchRecords(RECORDS, "/./", { limit: 2 });
    expect(result).toMatchObject({ total: 5, seqs: [0, 1, 2, 3, 4], nextCursor: 1 });
    expect(result.hits.map((hit) => hit.seq)).toEqual([0, 1]);
    const next = searchRecords(RECORDS, "/./", { limit: 2, cursor: 1 });
    expect(next.hits.map((hit) => hit.seq)).toEqual([2, 3]);
    expect(searchRecords(RECORDS, "/./", { limit: 2, cursor: 3 })).toMatchObject({ nextCursor: null, hits: [{ seq: 4 }] });
    expect(searchRecords(RECORDS, "/./", { maxSeqs: 3 })).toMatchObject({ total: 5, seqs: [0, 1, 2], seqsTruncated: true });
  });

  it("gives up past its time limit with a typed error", () => {
    let clock = 0;
    const source: SearchSource = { length: 10_000, text: () => "plain", name: () => "n", kind: () => "value" };
    expect(() => searchSource(source, parseSearchQuery("zzz"), { timeLimitMs: 10, now: () => (clock += 1) })).toThrow(SearchTimeoutError);
  });
});

/** A run's pages as the server reads them (the database makes the page text), searched as the pool's tasks search them. */
async function pooledSearch(store: Journal, runId: string, query: string, pageSize: number) {
  const last = (await store.run(runId))!.lastSeq;
  const chunks: SearchChunk[] = [];
  for (let from = 0; from <= last; from += pageSize) {
    const page = isPageReader(store) ? await store.historyPage(runId, { from, limit: pageSize }) : pageOf(await store.history(runId, { from, limit: pageSize }));
    chunks.push(searchPage({ runId, page, from, secretKeys: undefined }));
  }
  const pick = (field: "texts" | "names" | "kinds") => chunks.map((chunk) => chunk[field]);
  return search({ query, length: last + 1, texts: pick("texts"), names: pick("names"), kinds: pick("kinds") });
}

describe.each(STORE_KINDS)("search as the server's pool does it: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  beforeAll(async () => {
    store = await kind.open();
    await billingAgent(store).run("order-123", "Please charge order 123.");
  });
  afterAll(async () => {
    await store.close();
  });

  it("searches pages of the stored text as the pure search does the records", async () => {
    const records = await store.history("order-123");
    for (const query of ["chargecard", "/order\\s+123/", "run:complete"]) {
      expect(await pooledSearch(store, "order-123", query, 4), query).toEqual(searchRecords(records, query));
    }
  });

  it("finds text the journal holds JSON-escaped as the user sees it: quotes, backslashes, newlines, tabs, non-ASCII", async () => {
    const payload = { step: "escaped", value: { note: 'She said "hi"', path: "C:\\temp\\out", lines: "first line\nsecond line", cells: "a\tb", arrow: "café → bar" } };
    await store.append({ runId: "escapes", name: "escaped", kind: "value", payload });
    const records = await store.history("escapes");
    for (const query of ['said "hi"', "C:\\temp\\out", "line\nsecond", "a\tb", "café → bar", '/said "hi"/']) {
      expect(searchRecords(records, query).seqs, query).toEqual([0]);
      expect((await pooledSearch(store, "escapes", query, 10)).seqs, query).toEqual([0]);
    }
    const hit = searchRecords(records, 'said "hi"').hits[0]!;
    expect(hit.excerpt.slice(hit.matchStart, hit.matchEnd)).toBe('said "hi"');
    // The escapes themselves are not what the user sees.
    expect(searchRecords(records, '\\"hi').total).toBe(0);
  });
});

describe("backtrack search", () => {
  const folder = embeddedFolder();
  beforeAll(async () => {
    const { openStore } = await import("@/lib/store");
    const store = await openStore({ url: folder.url });
    await auditorAgent(store).run("long-audit", "Audit 600 accounts for anomalies.");
    await store.close();
  }, 120_000);
  afterAll(() => folder.remove());

  it("prints the hits of a substring, as JSON too, and refuses a bad pattern with exit 2", async () => {
    const text = await runMain(["search", "long-audit", "acct-279", "--db", folder.url]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^3 hits for acct-279 in long-audit/);
    expect(text.stdout).toContain("turn:139:call:1:result");
    const json = JSON.parse((await runMain(["search", "long-audit", '/acct-27[89]"/', "--json", "--db", folder.url])).stdout) as {
      total: number;
      hits: Array<{ seq: number; kind: string }>;
    };
    // acct-278 and acct-279 are asked for in one model turn: one hit for that record.
    expect(json.total).toBe(5);
    expect(json.hits.map((hit) => hit.kind)).toEqual(["model", "attempt", "tool_result", "attempt", "tool_result"]);
    const bad = await runMain(["search", "long-audit", "/(a+)+/", "--db", folder.url]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain("may not itself repeat");
  });
});
