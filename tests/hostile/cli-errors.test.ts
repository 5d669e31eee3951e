/**
 * Issue 12 item 12: the CLI prints one line per error (`backtrack: …`), never a raw stack unless
 * --verbose, and exits 2 for bad input or environment. `runs` and `show` read a folder they cannot
 * write. Real processes throughout.
 *
 * The read-only folder: this machine runs tests as root, which ignores file modes, so as root the
 * folder is made read-only by a read-only bind mount of itself (EROFS for every process, root
 * included); as another user by removing the write bits (EACCES). Either way the CLI process
 * really meets a folder the OS refuses to write.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeFailure } from "@/lib/cli/errors";
import { RunNotFoundError } from "@/lib/journal/errors";
import { openStore } from "@/lib/store";
import { serverUrl, tempFolder } from "../helpers/databases";
import { runCli, type CliResult } from "../helpers/processes";

/** Exit 2 and exactly one line on stderr, starting `backtrack: `, with no stack frame in it. */
function expectOneLine(result: CliResult, exitCode = 2): string {
  expect(result.code, result.stderr).toBe(exitCode);
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^backtrack: /);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return lines[0] ?? "";
}

/** Makes `path` read-only for the CLI's processes; returns the undo. */
function makeReadOnly(path: string): () => void {
  if (process.getuid?.() === 0) {
    execFileSync("mount", ["--bind", path, path]);
    execFileSync("mount", ["-o", "remount,ro,bind", path]);
    return () => execFileSync("umount", [path]);
  }
  const walk = (folder: string, mode: (current: number) => number) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(folder, entry.name), mode);
    }
    chmodSync(folder, mode(statSync(folder).mode));
  };
  walk(path, (current) => current & ~0o222);
  return () => walk(path, (current) => current | 0o200);
}

describe("CLI errors as one line", () => {
  const folder = tempFolder("backtrack-errors-");
  const data = join(folder.path, "data");
  const readOnly = join(folder.path, "read-only");
  const aFile = join(folder.path, "a-file");
  let undoReadOnly: (() => void) | undefined;

  beforeAll(async () => {
    const store = await openStore({ url: `pglite:${data}` });
    await store.append({ runId: "kept", name: "run:start", kind: "header", payload: { agent: "reader", input: "read me" } });
    await store.append({ runId: "kept", name: "answer", kind: "value", payload: { value: 42 } });
    await store.close();
    cpSync(data, readOnly, { recursive: true });
    undoReadOnly = makeReadOnly(readOnly);
    writeFileSync(aFile, "not a folder\n");
  }, 120_000);
  afterAll(() => {
    undoReadOnly?.();
    folder.remove();
  });

  it("a regular file given as the folder: one line, exit 2", async () => {
    const line = expectOneLine(await runCli(["runs", "--db", `pglite:${aFile}`]));
    expect(line).toBe(`backtrack: cannot open the embedded database in ${aFile}: it is a file, not a folder`);
    const below = expectOneLine(await runCli(["runs", "--db", `pglite:${join(aFile, "db")}`]));
    expect(below).toContain(`${aFile} is a file, not a folder`);
  });

  it("pglite:/proc/x ends at once with one line (mkdir -p there loops forever)", async () => {
    // Killed after 30 s (code null) if it loops: before the fix it never ended.
    const result = await runCli(["runs", "--db", "pglite:/proc/x"], {}, 30_000);
    const line = expectOneLine(result);
    expect(line).toContain("cannot open the embedded database in /proc/x: cannot create /proc/x");
  });

  it("a TLS failure (sslmode=require against a server without TLS): one line naming the URL, exit 2", async () => {
    const url = new URL(serverUrl());
    url.password = "tls-secret";
    url.searchParams.set("sslmode", "require");
    const result = await runCli(["runs", "--db", url.toString()]);
    const line = expectOneLine(result);
    expect(line).toContain("cannot reach the database at postgres://");
    expect(line).toMatch(/TLS|SSL/i);
    expect(line).not.toContain("tls-secret");
  });

  it("runs and show read a folder that cannot be written; a writing command says why it cannot", async () => {
    const runs = await runCli(["runs", "--json", "--db", `pglite:${readOnly}`]);
    expect(runs.code, runs.stderr).toBe(0);
    expect((JSON.parse(runs.stdout) as { runs: Array<{ runId: string }> }).runs.map((run) => run.runId)).toEqual(["kept"]);
    const show = await runCli(["show", "kept", "--json", "--db", `pglite:${readOnly}`]);
    expect(show.code, show.stderr).toBe(0);
    expect((JSON.parse(show.stdout) as { records: Array<{ name: string }> }).records.map((record) => record.name)).toEqual(["run:start", "answer"]);
    const demo = await runCli(["demo", "--db", `pglite:${readOnly}`]);
    const line = expectOneLine(demo);
    expect(line).toContain(`cannot open the embedded database in ${readOnly}: it cannot be written`);
    expect(line).toContain("commands that only read (runs, show, events, mermaid) can use it");
    // Nothing was written into the folder: no owner lock was left, the data is as it was.
    expect(existsSync(join(readOnly, "owner.json"))).toBe(false);
  }, 150_000);

  it("--verbose adds the stack to the one-line message", async () => {
    const result = await runCli(["runs", "--verbose", "--db", `pglite:${aFile}`]);
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe(`backtrack: cannot open the embedded database in ${aFile}: it is a file, not a folder`);
    expect(lines.length).toBeGreaterThan(2);
    expect(result.stderr).toMatch(/\n\s+at .*embedded-folder\.ts/);
  });

  it("sorts errors into exit codes: Backtrack errors and OS refusals 2, anything else 1 and one line", () => {
    expect(describeFailure(new RunNotFoundError("x"), false)).toEqual({ lines: ['backtrack: no run with id "x"'], exitCode: 2 });
    const denied = Object.assign(new Error("EACCES: permission denied, open '/x'"), { code: "EACCES" });
    expect(describeFailure(denied, false)).toEqual({ lines: ["backtrack: EACCES: permission denied, open '/x'"], exitCode: 2 });
    const bug = new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:1") });
    expect(describeFailure(bug, false)).toEqual({
      lines: ["backtrack: unexpected error (TypeError): fetch failed: connect ECONNREFUSED 127.0.0.1:1 (--verbose prints the stack)"],
      exitCode: 1,
    });
    const multiLine = new Error("first line\n  second line");
    expect(describeFailure(multiLine, false).lines).toEqual(["backtrack: unexpected error (Error): first line second line (--verbose prints the stack)"]);
    const verbose = describeFailure(bug, true).lines;
    expect(verbose[1]).toMatch(/^TypeError: fetch failed\n\s+at /);
    expect(verbose[2]).toMatch(/^caused by: Error: connect ECONNREFUSED/);
  });
});
