/**
 * `backtrack fork` on an embedded database and on the server: the plan, the fork of order-123 at
 * its tool result with --result, --json output, the fork_effect halt of chargeCard without
 * --allow-effects, and exit 2 with nothing written on bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "@/lib/store";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { runMain } from "../helpers/cli";
import { embeddedFolder, freshServerDatabase } from "../helpers/databases";
import { writeDemoRuns } from "../regression/helpers";

const targets = [
  {
    name: "embedded",
    open: async () => {
      const folder = embeddedFolder();
      return { url: folder.url, done: async () => folder.remove() };
    },
  },
  {
    name: "server",
    open: async () => {
      const database = await freshServerDatabase();
      return { url: database.url, done: database.drop };
    },
  },
];

describe.each(targets)("backtrack fork: $name", (target) => {
  let store: PostgresStore;
  let db: string;
  let done: () => Promise<void>;
  const cli = (args: string[]) => runMain([...args, "--db", db], { BACKTRACK_CONFIG: undefined, DATABASE_URL: undefined });

  beforeAll(async () => {
    ({ url: db, done } = await target.open());
    store = await openStore({ url: db });
    await writeDemoRuns(store, "order-123");
  });
  afterAll(async () => {
    await store.close();
    await done();
  });

  it("forks order-123 at its tool result with --result and prints the plan, the fork and its diff", async () => {
    const at = (await store.history("order-123")).findIndex((record) => record.kind === "tool_result");
    const text = await cli(["fork", "order-123", "--at", String(at), "--result", '{"charged":450,"receipt":"rcpt-x"}']);
    expect(text.stderr).toBe("");
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`plan: fork order-123 at step ${at} (tool_result "turn:0:call:0:result", edited), live after it under demo/v1`);
    expect(text.stdout).toContain("chargeCard  external  halts before it runs");
    expect(text.stdout).toContain(`forked order-123 at step ${at} as order-123~fork-1 under demo/v1: complete`);
    expect(text.stdout).toContain("first divergence at #1");

    const json = await cli(["fork", "order-123", "--at", String(at), "--error", "card declined", "--json"]);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as { newRunId: string; forkedFrom: unknown; status: string; diff: { divergentAt: number } };
    expect(out).toMatchObject({ newRunId: "order-123~fork-2", forkedFrom: { runId: "order-123", at }, status: "complete", diff: { divergentAt: 1 } });
    expect(JSON.stringify((await store.record(out.newRunId, "run:complete"))?.payload)).toContain("I could not charge order 123: card declined.");
  });

  it("puts the new run's cost in fork --json and replay --json, as show --json computes it", async () => {
    const at = (await store.history("order-123")).findIndex((record) => record.kind === "tool_result");
    type Costed = { newRunId: string; costUsd: number | null; cost: { costUsd: number | null; byModel: Array<{ model: string; inputTokens: number; outputTokens: number }> } };
    const forked = JSON.parse((await cli(["fork", "order-123", "--at", String(at), "--error", "card declined", "--json"])).stdout) as Costed;
    const replayed = JSON.parse((await cli(["replay", "order-123", "--model", "demo/v2", "--json"])).stdout) as Costed;
    for (const out of [forked, replayed]) {
      const shown = JSON.parse((await cli(["show", out.newRunId, "--json"])).stdout) as Omit<Costed, "newRunId">;
      expect(out.costUsd).toBeGreaterThan(0);
      expect(out.costUsd).toBe(shown.costUsd);
      expect(out.cost).toEqual(shown.cost);
      expect(out.cost.byModel[0]?.inputTokens).toBeGreaterThan(0);
    }
  });

  it("halts before chargeCard without --allow-effects (exit 0, paused) and runs it with the flag", async () => {
    const at = (await store.history("order-123")).findIndex((record) => record.kind === "model");
    const held = await cli(["fork", "order-123", "--at", String(at), "--args", '{"orderId":"123","amount":900}', "--json"]);
    expect(held.code).toBe(0);
    const out = JSON.parse(held.stdout) as { newRunId: string; status: string; pause: { halt: string } };
    expect(out).toMatchObject({ status: "paused", pause: { halt: "fork_effect", toolName: "chargeCard" } });
    expect(await store.record(out.newRunId, "turn:0:call:0:attempt")).toBeUndefined();

    const allowed = await cli(["fork", "order-123", "--at", String(at), "--args", '{"orderId":"123","amount":900}', "--allow-effects", "--json"]);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ status: "complete" });
  });

  it("exits 2 with one line and writes nothing on bad input", async () => {
    const before = (await store.runs({ forkOf: "order-123", limit: 100 })).runs.length;
    for (const args of [
      ["fork", "order-123", "--at", "99"],
      ["fork", "order-123", "--at", "x"],
      ["fork", "order-123", "--at", "1", "--result", "{bad"],
      ["fork", "order-123", "--at", "1", "--text", "a", "--error", "b"],
      ["fork", "order-123", "--at", "1", "--result", "1"],
      ["fork", "order-123", "--at", "1", "--model", "gpt-9"],
    ]) {
      const outcome = await cli(args);
      expect(outcome.code, args.join(" ")).toBe(2);
      expect(outcome.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
    }
    expect((await store.runs({ forkOf: "order-123", limit: 100 })).runs.length).toBe(before);
  });
});

describe("backtrack bisect", () => {
  let store: PostgresStore;
  let db: string;
  let done: () => Promise<void>;
  const cli = (args: string[]) => runMain([...args, "--db", db], { BACKTRACK_CONFIG: undefined, DATABASE_URL: undefined });

  beforeAll(async () => {
    ({ url: db, done } = await targets[0]!.open());
    store = await openStore({ url: db });
    await writeDemoRuns(store, "order-123");
  });
  afterAll(async () => {
    await store.close();
    await done();
  });

  it("finds the decision of order-123 that flips under demo/v2, and exits 2 for an unknown scorer", async () => {
    const json = await cli(["bisect", "order-123", "--model", "demo/v2", "--scorer", "same-decisions", "--json"]);
    expect(json.stderr).toBe("");
    const result = JSON.parse(json.stdout) as { k: number; decisions: number; forks: Array<{ pass: boolean }> };
    // demo/v2 words its final answer differently too: going live at the last decision still fails.
    expect(result).toMatchObject({ k: 1, decisions: 2 });
    expect(result.forks.length).toBeLessThanOrEqual(2);
    const text = await cli(["bisect", "order-123", "--model", "demo/v2", "--scorer", "same-decisions"]);
    expect(text.stdout).toContain("k = 1: decision 1 of 2");
    const unknown = await cli(["bisect", "order-123", "--model", "demo/v2", "--scorer", "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no scorer named "nope"');
  });
});
