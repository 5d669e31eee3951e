/**
 * Issue 12 item 13 (and 15's missing agent): runs carry their origin. Imported runs are marked
 * "import", and recovery and its board leave them alone unless asked; agent runs are "agent",
 * replays "replay". The demo's live-auditor is registered, so its run recovers after kill -9.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoRegistry } from "@/lib/demo/registry";
import { writeDemo } from "@/lib/demo/seed";
import { importRuns } from "@/lib/journal/import";
import type { Journal } from "@/lib/journal/ports";
import { recoverWithRegistry } from "@/lib/recovery/actions";
import { boardView, recoveryBoard } from "@/lib/recovery/board";
import { recover } from "@/lib/recovery/recover";
import { replayRun } from "@/lib/regression/replay-run";
import type { PostgresStore } from "@/lib/store";
import { freshServerDatabase, STORE_KINDS, tempFolder } from "../helpers/databases";
import { runCli, startTs } from "../helpers/processes";
import { generatedText } from "./jsonl-files";

describe.each(STORE_KINDS)("run origins: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };

  beforeAll(async () => {
    store = await kind.open();
    await writeDemo(store);
    await importRuns(store, generatedText({ prefix: "imported", runs: 3, recordsPerRun: 1 }));
  });
  afterAll(async () => {
    await store.close();
  });

  it("marks imported runs import, agent runs agent and replays replay", async () => {
    expect((await store.run("imported-0"))?.origin).toBe("import");
    expect((await store.run("order-123"))?.origin).toBe("agent");
    const { newRunId } = await replayRun({ journal: store, runId: "order-123", model: "demo/v1", registry: demoRegistry() });
    expect((await store.run(newRunId))?.origin).toBe("replay");
  });

  it("recover leaves imported unfinished runs alone unless asked to include them", async () => {
    const driven: string[] = [];
    const resume = async (runId: string) => void driven.push(runId);
    await recover(store, resume);
    expect(driven.filter((runId) => runId.startsWith("imported-"))).toEqual([]);
    driven.length = 0;
    await recover(store, resume, { includeImported: true });
    expect(driven.filter((runId) => runId.startsWith("imported-")).sort()).toEqual(["imported-0", "imported-1", "imported-2"]);
  });

  it('a run:start without an agent fails recovery saying the agent field is missing, not "undefined"', async () => {
    await importRuns(store, generatedText({ prefix: "nameless", runs: 1, recordsPerRun: 1, agent: null }));
    const result = await recoverWithRegistry(store, demoRegistry(), { includeImported: true });
    const failed = result.runs.find((run) => run.runId === "nameless-0");
    expect(failed?.outcome).toBe("failed");
    expect(failed?.error).toMatch(/run:start of run "nameless-0" has no "agent" field/);
    expect(failed?.error).not.toContain("undefined");
  });
});

describe.each(STORE_KINDS.filter((kind) => kind.name !== "memory"))("the recovery board and imported runs: $name", (kind) => {
  let store: PostgresStore;

  beforeAll(async () => {
    store = (await kind.open()) as unknown as PostgresStore;
    await importRuns(store, generatedText({ prefix: "board-imported", runs: 2, recordsPerRun: 2 }));
    await store.append({ runId: "board-agent", name: "run:start", kind: "header", payload: { agent: "auditor", model: "demo/v1", input: "x", tools: [] } });
  });
  afterAll(async () => {
    await store.close();
  });

  it("lists imported runs only when asked, each saying its origin, and counts the hidden ones", async () => {
    const plain = await recoveryBoard(store);
    expect(plain.map((entry) => entry.runId)).toEqual(["board-agent"]);
    const all = await recoveryBoard(store, { includeImported: true });
    expect(all.map((entry) => [entry.runId, entry.origin])).toEqual([
      ["board-agent", "agent"],
      ["board-imported-0", "import"],
      ["board-imported-1", "import"],
    ]);
    expect(boardView(all)).toMatchObject({ runs: [{ runId: "board-agent" }], hiddenImported: 2 });
    expect(boardView(all, { includeImported: true }).runs).toHaveLength(3);
  });
});

describe("recovery on the command line: server", () => {
  let database: { url: string; drop: () => Promise<void> };
  const folder = tempFolder("backtrack-origin-");

  beforeAll(async () => {
    database = await freshServerDatabase();
  });
  afterAll(async () => {
    await database.drop();
    folder.remove();
  });

  it("backtrack recover skips imported runs; --include-imported drives them", async () => {
    const file = join(folder.path, "header-only.jsonl");
    writeFileSync(file, generatedText({ prefix: "cli-imported", runs: 2, recordsPerRun: 1 }));
    expect((await runCli(["import", file, "--db", database.url])).code).toBe(0);
    const skipped = await runCli(["recover", "--db", database.url]);
    expect(skipped).toMatchObject({ code: 0, stdout: "nothing to recover: every run is complete\n" });
    const included = await runCli(["recover", "--include-imported", "--db", database.url]);
    expect(included.stdout).toContain("cli-imported-0");
    expect(included.stdout).toContain("cli-imported-1");
  });

  it("the demo's live run recovers after its process is killed with kill -9", async () => {
    const child = startTs("bin/backtrack.mjs", ["demo", "--live", "--run-id", "live-killed", "--accounts", "4", "--interval", "300", "--db", database.url]);
    await child.waitFor(/live run live-killed/);
    // Let it take a few steps, then kill it mid-run.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    child.process.kill("SIGKILL");
    await child.exited;
    const recovered = await runCli(["recover", "--db", database.url]);
    expect(recovered.stderr).toBe("");
    expect(recovered.stdout).not.toContain("no agent");
    // Killed between steps it completes; killed inside a tool call it halts on the call's unknown
    // outcome (checkAccount declares no effects), waiting for `backtrack resolve`: both are recovered.
    expect(recovered.stdout).toMatch(/^(complete\s+live-killed|paused\s+live-killed\s+run "live-killed" halted)/m);
    expect(recovered.code).toBe(0);
    const shown = await runCli(["show", "live-killed", "--json", "--db", database.url]);
    expect(JSON.parse(shown.stdout)).toMatchObject({ run: { agent: "live-auditor", status: expect.stringMatching(/^(complete|paused)$/) } });
  });
});
