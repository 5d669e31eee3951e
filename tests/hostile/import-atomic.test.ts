/**
 * Issue 12 item 3: a file's import is all or nothing and exclusive. Two imports of one run id:
 * exactly one wins, the other gets run_exists (409 over HTTP, exit 2 on the CLI). An import whose
 * process dies before its commit leaves nothing, on every store and by a real kill -9 of
 * `backtrack import` against the server.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importRuns } from "@/lib/journal/import";
import type { Journal } from "@/lib/journal/ports";
import { freshServerDatabase, STORE_KINDS, tempFolder } from "../helpers/databases";
import { runCli } from "../helpers/processes";
import { generatedText, writeGenerated } from "./jsonl-files";

describe.each(STORE_KINDS)("imports are all or nothing and exclusive: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };

  beforeAll(async () => {
    store = await kind.open();
  });
  afterAll(async () => {
    await store.close();
  });

  it("of two concurrent imports of one run id, exactly one wins and the other gets run_exists; the run is the winner's, unmixed", async () => {
    const first = generatedText({ prefix: "same", runs: 1, recordsPerRun: 300, payloadChars: 10, complete: true });
    const second = generatedText({ prefix: "same", runs: 1, recordsPerRun: 299, payloadChars: 20, complete: true });
    const outcomes = await Promise.allSettled([importRuns(store, first), importRuns(store, second)]);
    const won = outcomes.findIndex((outcome) => outcome.status === "fulfilled");
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome.status === "rejected")).toMatchObject({ reason: { code: "run_exists" } });
    const history = await store.history("same-0");
    expect(history).toHaveLength(won === 0 ? 300 : 299);
    const chars = won === 0 ? 10 : 20;
    for (const record of history.slice(1, -1)) expect((record.payload as { text: string }).text).toHaveLength(chars);
  });

  it("an import whose process dies before its commit leaves nothing, and the same file imports afterwards", async () => {
    const text = generatedText({ prefix: "cut", runs: 3, recordsPerRun: 50 });
    const batch = await store.beginImport();
    const records = text
      .trim()
      .split("\n")
      .slice(0, 100)
      .map((line) => JSON.parse(line) as { runId: string; seq: number; name: string; kind: string; payload: unknown });
    await batch.stage(records);
    // The process "dies" here: no commit, no discard.
    for (const runId of ["cut-0", "cut-1", "cut-2"]) {
      expect(await store.run(runId)).toBeUndefined();
      expect(await store.history(runId)).toEqual([]);
    }
    expect((await store.runs({ search: "cut-" })).runs).toEqual([]);
    expect(await importRuns(store, text)).toMatchObject({ imported: 150, runs: ["cut-0", "cut-1", "cut-2"] });
    expect(await store.history("cut-2")).toHaveLength(50);
  });

  it("a file with one run that exists imports none of its other runs", async () => {
    await importRuns(store, generatedText({ prefix: "mixed", runs: 1, recordsPerRun: 3 }));
    const text = generatedText({ prefix: "mixed", runs: 3, recordsPerRun: 3 });
    await expect(importRuns(store, text)).rejects.toMatchObject({ code: "run_exists", runId: "mixed-0" });
    expect(await store.run("mixed-1")).toBeUndefined();
    expect(await store.run("mixed-2")).toBeUndefined();
  });
});

describe("imports through real CLI processes: server", () => {
  let database: { url: string; drop: () => Promise<void> };
  let sql: postgres.Sql;
  const folder = tempFolder("backtrack-import-");

  beforeAll(async () => {
    database = await freshServerDatabase();
    sql = postgres(database.url, { max: 1, onnotice: () => undefined });
    // Migrate once, so that the children do not race to.
    expect((await runCli(["runs", "--db", database.url])).code).toBe(0);
  });
  afterAll(async () => {
    await sql.end();
    await database.drop();
    folder.remove();
  });

  /** Records written anywhere for runs with this prefix: the journal, and an import's staging. */
  async function written(prefix: string): Promise<{ journal: number; staged: number }> {
    const [journal] = await sql<Array<{ count: string }>>`select count(*) from records where run_id like ${`${prefix}-%`}`;
    let staged = 0;
    const [exists] = await sql<Array<{ table: string | null }>>`select to_regclass('import_staging')::text as table`;
    if (exists?.table) staged = Number((await sql<Array<{ count: string }>>`select count(*) from import_staging where run_id like ${`${prefix}-%`}`)[0]?.count);
    return { journal: Number(journal?.count), staged };
  }

  it("kill -9 during backtrack import of a 20,000-record file leaves nothing, and the file imports afterwards", async () => {
    const file = join(folder.path, "twenty-thousand.jsonl");
    await writeGenerated(file, { prefix: "killed", runs: 20, recordsPerRun: 1_000, payloadChars: 1_000 });
    const child = spawn(process.execPath, ["bin/backtrack.mjs", "import", file, "--db", database.url], { stdio: "ignore" });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const started = Date.now();
    for (;;) {
      const seen = await written("killed");
      if (seen.journal + seen.staged > 0) break;
      if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`the import never started writing (exit ${child.exitCode})`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill("SIGKILL");
    await exited;
    expect((await written("killed")).journal).toBe(0);
    expect(await sql`select run_id from runs where run_id like 'killed-%'`).toHaveLength(0);
    const again = await runCli(["import", file, "--db", database.url]);
    expect(again).toMatchObject({ code: 0, stdout: expect.stringContaining("imported 20000 records in 20 run(s)") });
    expect((await written("killed")).journal).toBe(20_000);
  });
});
