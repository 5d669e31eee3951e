/**
 * `backtrack try` on an embedded database: ten tries of order-123's charge decision with
 * --system-file, one line a try and the summary; --json with the request and the split;
 * --fork-with going live from a try; and exit 2 with one line and nothing written on bad input.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "@/lib/store";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { runMain } from "../helpers/cli";
import { embeddedFolder } from "../helpers/databases";
import { writeDemoRuns } from "../regression/helpers";

describe("backtrack try", () => {
  const folder = embeddedFolder();
  let store: PostgresStore;
  let at: number;
  const systemFile = join(mkdtempSync(join(tmpdir(), "backtrack-try-")), "system.txt");
  const cli = (args: string[]) => runMain([...args, "--db", folder.url], { BACKTRACK_CONFIG: undefined, DATABASE_URL: undefined });

  beforeAll(async () => {
    store = await openStore({ url: folder.url });
    await writeDemoRuns(store, "order-123");
    at = (await store.record("order-123", "turn:0"))!.seq;
    writeFileSync(systemFile, "You are the billing agent. Confirm the amount with the customer when in doubt.\n");
  });
  afterAll(async () => {
    await store.close();
    folder.remove();
  });

  it("tries the charge decision ten times under an edited system prompt and prints each try and the split", async () => {
    const out = await cli(["try", "order-123", "--at", String(at), "--times", "10", "--system-file", systemFile]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const lines = out.stdout.trim().split("\n");
    expect(lines[0]).toBe(`tried step ${at} (turn 0) of order-123 10 time(s) under demo/v1, edited`);
    expect(lines.filter((line) => /^ {2}try \d+ order-123~try-\d+: /.test(line))).toHaveLength(10);
    expect(lines.at(-1)).toMatch(/^summary: tool `chargeCard` in \d+ of 10; text in \d+ of 10; amount differs in \d+; \d+ of 10 as recorded$/);
    expect((await store.run("order-123~try-10"))?.origin).toBe("playground");
  });

  it("prints the request, the tries and the summary as JSON, and forks a try with --fork-with", async () => {
    const out = await cli(["try", "order-123", "--at", String(at), "--times", "3", "--no-journal", "--json"]);
    expect(out.code).toBe(0);
    const tried = JSON.parse(out.stdout) as { request: { system: string; tools: string[] }; tries: Array<{ runId?: string }>; summary: { times: number; line: string } };
    expect(tried.request).toMatchObject({ system: "You are the billing agent. Charge orders as asked.", tools: ["chargeCard"] });
    expect(tried.tries.every((each) => each.runId === undefined)).toBe(true);
    expect(tried.summary.times).toBe(3);

    const forked = await cli(["try", "order-123", "--at", String(at), "--times", "2", "--fork-with", "1", "--allow-effects"]);
    expect(forked.code).toBe(0);
    const line = forked.stdout.trim().split("\n").at(-1) ?? "";
    expect(line).toMatch(/^forked try 1 as order-123~try-\d+~fork-1: complete$/);
    const forkId = /as (\S+):/.exec(line)?.[1] ?? "";
    expect(await store.run(forkId)).toMatchObject({ origin: "fork", status: "complete" });
  });

  it("refuses bad input with exit 2, one line, and nothing written", async () => {
    const before = (await store.runs({ limit: 500 })).runs.length;
    for (const args of [
      ["try", "order-123", "--at", "0"],
      ["try", "order-123", "--at", String(at), "--times", "21"],
      ["try", "order-123", "--at", String(at), "--times", "two"],
      ["try", "order-123", "--at", String(at), "--model", "gpt-nope"],
      ["try", "order-123", "--at", String(at), "--system", "a", "--system-file", systemFile],
      ["try", "order-123", "--at", String(at), "--system-file", "/no/such/file"],
      ["try", "order-123", "--at", String(at), "--times", "2", "--fork-with", "2"],
    ]) {
      const outcome = await cli(args);
      expect(outcome.code, args.join(" ")).toBe(2);
      expect(outcome.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
    }
    expect((await store.runs({ limit: 500 })).runs.length).toBe(before);
  });
});
