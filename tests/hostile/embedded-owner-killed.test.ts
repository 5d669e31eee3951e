/**
 * Issue 12 item 10: a process writing through another process's embedded database outlives a
 * kill -9 of that owner. It takes the folder over as a new process would, or stops with a clear
 * message and exit 2; never `TypeError: fetch failed`. Afterwards the data is consistent: every
 * acknowledged write is there, seq is dense, the summary counts what the history holds.
 * Real processes, real PGlite.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "@/lib/store";
import { tempFolder } from "../helpers/databases";
import { startTs, type Child } from "../helpers/processes";

const OWNER = "tests/fixtures/embedded-child.ts";
// Three to four real processes, each opening PGlite (1-5 s on a loaded two-core machine).
const SLOW = 180_000;
const GUEST = "tests/fixtures/embedded-guest.ts";
const children: Child[] = [];
const folders: Array<{ remove: () => void }> = [];
afterEach(() => {
  for (const child of children.splice(0)) child.process.kill("SIGKILL");
  for (const folder of folders.splice(0)) folder.remove();
});

async function startOwner(path: string): Promise<Child> {
  const owner = startTs(OWNER, [path, "owner-run", "5", "hold"]);
  children.push(owner);
  expect(await owner.waitFor(/^kind=/)).toBe("kind=embedded");
  await owner.waitFor(/^done$/);
  return owner;
}

async function kill9(child: Child): Promise<void> {
  child.process.kill("SIGKILL");
  await child.exited;
}

/** Every run in the folder: seq dense from 0, and the summary's count equal to the history's. */
async function expectConsistent(path: string): Promise<Map<string, string[]>> {
  const store = await openStore({ url: `pglite:${path}` });
  try {
    expect(store.client.kind).toBe("embedded");
    const names = new Map<string, string[]>();
    for (const run of (await store.runs({ limit: 500 })).runs) {
      const history = await store.history(run.runId);
      expect(
        history.map((record) => record.seq),
        run.runId,
      ).toEqual([...history.keys()]);
      expect(run.recordCount, run.runId).toBe(history.length);
      names.set(
        run.runId,
        history.map((record) => record.name),
      );
    }
    return names;
  } finally {
    await store.close();
  }
}

describe("a client whose embedded owner is killed", () => {
  it(
    "takes the folder over between two statements and goes on writing",
    async () => {
      const folder = tempFolder();
      folders.push(folder);
      const owner = await startOwner(folder.path);
      const go = join(folder.path, "go");
      const guest = startTs(GUEST, [folder.path, "guest", "40", "20", go]);
      children.push(guest);
      expect(await guest.waitFor(/^kind=/)).toBe("kind=embedded-remote");
      await guest.waitFor(/^paused$/);
      await kill9(owner);
      writeFileSync(go, "");
      expect(await guest.exited, guest.output()).toBe(0);
      const lines = guest.output().split("\n");
      // The guest is now the folder's owner: the statement after the kill was sent to it, once.
      expect(lines).toContain("kind=embedded");
      expect(lines).toContain("done");
      const names = await expectConsistent(folder.path);
      expect(names.get("owner-run")).toHaveLength(5);
      expect(names.get("guest")).toEqual(Array.from({ length: 40 }, (_, index) => `guest-${index}`));
    },
    SLOW,
  );

  it(
    "while writing without pause: takes over or stops with exit 2 and a clear line; acknowledged writes are kept",
    async () => {
      const folder = tempFolder();
      folders.push(folder);
      const owner = await startOwner(folder.path);
      const guest = startTs(GUEST, [folder.path, "guest", "400", "-1", ""]);
      children.push(guest);
      expect(await guest.waitFor(/^kind=/)).toBe("kind=embedded-remote");
      await guest.waitFor(/^ok 30$/);
      await kill9(owner);
      const code = await guest.exited;
      const output = guest.output();
      expect(output).not.toContain("fetch failed");
      const acknowledged = output.split("\n").filter((line) => line.startsWith("ok ")).length;
      if (code === 0) {
        expect(acknowledged).toBe(400);
      } else {
        expect(code, output).toBe(2);
        expect(output).toMatch(/^error database_owner_lost: process \d+, which owned the embedded database in .* stopped while running a statement/m);
      }
      const names = (await expectConsistent(folder.path)).get("guest") ?? [];
      // Every acknowledged append is kept; at most the one in flight at the kill is there unacknowledged.
      expect(names.slice(0, acknowledged)).toEqual(Array.from({ length: acknowledged }, (_, index) => `guest-${index}`));
      expect(names.length - acknowledged).toBeLessThanOrEqual(1);
    },
    SLOW,
  );

  it(
    "the real CLI (demo --live) through a killed owner: exit 0 or exit 2 with one line, never a stack",
    async () => {
      const folder = tempFolder();
      folders.push(folder);
      const owner = await startOwner(folder.path);
      const cli = spawn(
        process.execPath,
        [resolve("bin/backtrack.mjs"), "demo", "--live", "--run-id", "live-killed", "--accounts", "60", "--interval", "20", "--db", `pglite:${folder.path}`],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stdout = "";
      let stderr = "";
      cli.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      cli.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((done) => cli.on("exit", (code) => done(code)));
      const killer = setTimeout(() => cli.kill("SIGKILL"), 120_000);
      // A few steps through the owner, then the owner is killed mid-run.
      while (!/turn 3:/.test(stdout) && cli.exitCode === null) await new Promise((done) => setTimeout(done, 25));
      await kill9(owner);
      const code = await exited;
      clearTimeout(killer);
      expect(stderr).not.toContain("fetch failed");
      expect(stderr).not.toMatch(/\n\s+at /);
      if (code === 0) {
        expect(stdout).toContain("complete:");
        expect(stderr).toBe("");
      } else {
        expect(code, stderr).toBe(2);
        expect(stderr.trimEnd().split("\n")).toHaveLength(1);
        expect(stderr).toMatch(/^backtrack: process \d+, which owned the embedded database in /);
      }
      const names = await expectConsistent(folder.path);
      expect(names.get("owner-run")).toHaveLength(5);
      expect(names.get("live-killed")?.length ?? 0).toBeGreaterThan(3);
    },
    SLOW,
  );
});
