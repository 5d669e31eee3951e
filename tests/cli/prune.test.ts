/**
 * `backtrack prune` (issue 18): bad durations and statuses are bad input (exit 2, one line,
 * nothing deleted); a dry run says what would go; a prune says what went, in text and JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "@/lib/store";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { runMain } from "../helpers/cli";
import { freshServerDatabase } from "../helpers/databases";

describe("backtrack prune", () => {
  let database: { url: string; drop: () => Promise<void> };
  let store: PostgresStore;
  beforeAll(async () => {
    database = await freshServerDatabase();
    store = await openStore({ url: database.url });
    for (const runId of ["ancient-1", "ancient-2", "ancient-3"]) {
      await store.append({ runId, name: "run:start", kind: "header", payload: { input: runId, agent: "auditor" } });
      await store.append({ runId, name: "run:complete", kind: "value", payload: { text: "done" } });
    }
    await store.setStatus("ancient-3", { status: "failed", error: "boom" });
    // Forty days ago, as far as the summary rows and records say.
    await store.client.exec(`UPDATE runs SET started_at = now() - interval '40 days', updated_at = now() - interval '40 days'`);
    await store.client.exec(`UPDATE records SET created_at = now() - interval '40 days'`);
    await store.append({ runId: "fresh", name: "run:start", kind: "header", payload: { input: "fresh", agent: "auditor" } });
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it("refuses a bad duration, status or batch size with exit 2 and one line", async () => {
    for (const argv of [
      ["prune", "--older-than", "a month"],
      ["prune", "--older-than", "30d", "--status", "done"],
      ["prune", "--older-than", "30d", "--batch-size", "0"],
    ]) {
      const outcome = await runMain([...argv, "--db", database.url]);
      expect(outcome.code, argv.join(" ")).toBe(2);
      expect(outcome.stderr.trim().split("\n"), argv.join(" ")).toHaveLength(1);
      expect(outcome.stdout).toBe("");
    }
    expect((await store.runs()).runs).toHaveLength(4);
  });

  it("says what a dry run would prune, then prunes it", async () => {
    const dry = await runMain(["prune", "--older-than", "30d", "--status", "complete", "--dry-run", "--db", database.url]);
    expect(dry).toMatchObject({ code: 0, stderr: "" });
    expect(dry.stdout).toMatch(/^would prune 2 runs \(ancient-1, ancient-2\), 4 records, 0 leases, 0 sessions \(idle since before 20\d\d-/);
    expect((await store.runs()).runs).toHaveLength(4);
    const pruned = await runMain(["prune", "--older-than", "30d", "--json", "--db", database.url]);
    expect(pruned.code).toBe(0);
    const { pruned: result } = JSON.parse(pruned.stdout) as { pruned: { runs: number; runIds: string[]; records: number; dryRun: boolean } };
    expect(result).toMatchObject({ runs: 3, records: 6, dryRun: false });
    expect([...result.runIds].sort()).toEqual(["ancient-1", "ancient-2", "ancient-3"]);
    expect((await store.runs()).runs.map((run) => run.runId)).toEqual(["fresh"]);
    const again = await runMain(["prune", "--older-than", "30d", "--db", database.url]);
    expect(again.stdout).toMatch(/^pruned 0 runs, 0 records, 0 leases, 0 sessions/);
  });
});
