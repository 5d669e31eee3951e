/**
 * Issue 12 item 3: deleting a run. The store port's deleteRun removes the run, its sub-agent runs
 * (by parent, recursively) and their leases, and says what it removed; `backtrack delete` asks on
 * a terminal, refuses in a pipe without --yes (exit 2), and prints one line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importRuns } from "@/lib/journal/import";
import type { Journal, Leaser } from "@/lib/journal/ports";
import { freshServerDatabase, STORE_KINDS } from "../helpers/databases";
import { runCli } from "../helpers/processes";
import { generatedText } from "./jsonl-files";

/** A root run with a sub-agent run, which has one of its own, and an unrelated run. */
async function tree(store: Journal, root: string): Promise<void> {
  const header = (parentRunId?: string) => ({ agent: "auditor", model: "demo/v1", input: "audit", tools: [], ...(parentRunId ? { parentRunId } : {}) });
  await store.append({ runId: root, name: "run:start", kind: "header", payload: header() });
  await store.append({ runId: root, name: "step", kind: "value", payload: 1 });
  await store.append({ runId: `${root}.child`, name: "run:start", kind: "header", payload: header(root) });
  await store.append({ runId: `${root}.child.grandchild`, name: "run:start", kind: "header", payload: header(`${root}.child`) });
  await store.append({ runId: `${root}.child.grandchild`, name: "step", kind: "value", payload: 2 });
  await store.append({ runId: `${root}-other`, name: "run:start", kind: "header", payload: header() });
}

describe.each(STORE_KINDS)("deleting a run: $name", (kind) => {
  let store: Journal & Leaser & { close(): Promise<void> };

  beforeAll(async () => {
    store = (await kind.open()) as Journal & Leaser & { close(): Promise<void> };
  });
  afterAll(async () => {
    await store.close();
  });

  it("removes the run, its sub-agent runs and their leases, says what it removed, and leaves other runs", async () => {
    await tree(store, "doomed");
    expect(await store.acquireLease("doomed", "worker-1", 60_000)).toBe(true);
    expect(await store.acquireLease("doomed.child", "worker-1", 60_000)).toBe(true);
    const deleted = await store.deleteRun("doomed");
    expect(deleted).toEqual({ runs: ["doomed", "doomed.child", "doomed.child.grandchild"], records: 5, leases: 2 });
    for (const runId of deleted.runs) {
      expect(await store.run(runId)).toBeUndefined();
      expect(await store.history(runId)).toEqual([]);
    }
    expect(await store.run("doomed-other")).toBeDefined();
    // The lease is gone, so another holder takes it at once.
    expect(await store.acquireLease("doomed", "worker-2", 60_000)).toBe(true);
  });

  it("answers not_found for an unknown run", async () => {
    await expect(store.deleteRun("never-was")).rejects.toMatchObject({ code: "not_found" });
  });

  it("after a delete, the same id imports again and appends start at seq 0 (nothing cached survives)", async () => {
    const text = generatedText({ prefix: "again", runs: 1, recordsPerRun: 5 });
    await importRuns(store, text);
    await expect(importRuns(store, text)).rejects.toMatchObject({ code: "run_exists" });
    await store.deleteRun("again-0");
    expect(await importRuns(store, text)).toMatchObject({ imported: 5 });
    await store.deleteRun("again-0");
    const { record } = await store.append({ runId: "again-0", name: "run:start", kind: "header", payload: { agent: "auditor" } });
    expect(record.seq).toBe(0);
    expect((await store.run("again-0"))?.recordCount).toBe(1);
  });
});

describe("backtrack delete: server", () => {
  let database: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    database = await freshServerDatabase();
    const file = `${process.env.TMPDIR ?? "/tmp"}/delete-cli-${process.pid}.jsonl`;
    const { writeFileSync, rmSync } = await import("node:fs");
    writeFileSync(file, generatedText({ prefix: "cli", runs: 2, recordsPerRun: 4 }));
    expect((await runCli(["import", file, "--db", database.url])).code).toBe(0);
    rmSync(file);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("in a pipe without --yes refuses with exit 2 and deletes nothing", async () => {
    const refused = await runCli(["delete", "cli-0", "--db", database.url]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^backtrack: refusing to delete "cli-0" without --yes/);
    expect((await runCli(["show", "cli-0", "--db", database.url])).code).toBe(0);
  });

  it("with --yes deletes the run and says what it removed in one line; --json gives the counts", async () => {
    const done = await runCli(["delete", "cli-0", "--yes", "--db", database.url]);
    expect(done).toMatchObject({ code: 0, stdout: "deleted 1 run (cli-0), 4 records, 0 leases\n" });
    expect((await runCli(["show", "cli-0", "--db", database.url])).code).toBe(2);
    const json = await runCli(["delete", "cli-1", "--yes", "--json", "--db", database.url]);
    expect(JSON.parse(json.stdout)).toEqual({ deleted: { runs: ["cli-1"], records: 4, leases: 0 } });
  });

  it("an unknown run is exit 2 with one line", async () => {
    const missing = await runCli(["delete", "nope", "--yes", "--db", database.url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('backtrack: no run with id "nope"\n');
  });
});
