/**
 * Issue 12 item 1: every CLI command writes all of its output to a pipe, whatever its size.
 * The real CLI is spawned into a shell pipe (as a user runs `backtrack export run | wc -c`) and
 * what came through the pipe is compared byte for byte with the same command written to a file.
 */
import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "@/lib/store";
import { embeddedFolder } from "../helpers/databases";

const CLI = resolve("bin/backtrack.mjs");
const BIG_RUN = "big-run";
const MEGABYTE = 1024 * 1024;
// Each test starts the CLI twice (tsx and PGlite: 2-20 s each on a loaded two-core machine).
const SLOW = 150_000;

/** Runs a bash command line; resolves with its exit status, its stderr and how long it took. */
function bash(line: string): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn("bash", ["-c", line], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => done({ code, stderr, ms: Date.now() - started }));
  });
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

describe("CLI output into a pipe", () => {
  // A copy of the migrated template: the CLI's start, not a first initdb, is what runs here.
  const folder = embeddedFolder("backtrack-pipe-");
  const db = folder.url;

  beforeAll(async () => {
    const store = await openStore({ url: db });
    // One run of about 1.6 MB of payloads (export, show --json), and 500 runs whose summaries carry
    // 500 three-byte characters and a long agent name each (runs --json --limit 500 is then over 1 MB).
    await store.append({ runId: BIG_RUN, name: "run:start", kind: "header", payload: { agent: "pipe", input: "big" } });
    for (let index = 0; index < 400; index += 1) {
      await store.append({ runId: BIG_RUN, name: `step-${index}`, kind: "value", payload: { index, text: `${index}:`.padEnd(4_000, "x") } });
    }
    for (let index = 0; index < 500; index += 1) {
      await store.append({ runId: `wide-${index}`, name: "run:start", kind: "header", payload: { agent: `pipe-${"a".repeat(200)}`, input: "語".repeat(500) } });
    }
    await store.close();
  }, 180_000);
  afterAll(() => folder.remove());

  const commands: Array<[string, string[]]> = [
    ["export", ["export", BIG_RUN]],
    ["show --json", ["show", BIG_RUN, "--json"]],
    ["runs --json", ["runs", "--json", "--limit", "500"]],
  ];

  for (const [label, args] of commands) {
    it(
      `${label} writes the same bytes to a pipe as to a file, and exits 0`,
      async () => {
        const command = [process.execPath, CLI, ...args, "--db", db].map(quote).join(" ");
        const toFile = join(folder.path, `${label.replaceAll(/\W/g, "_")}.file`);
        const throughPipe = join(folder.path, `${label.replaceAll(/\W/g, "_")}.pipe`);
        const file = await bash(`${command} > ${quote(toFile)}`);
        expect(file.code, file.stderr).toBe(0);
        // pipefail: the status is the CLI's, not cat's.
        const piped = await bash(`set -o pipefail; ${command} | cat > ${quote(throughPipe)}`);
        expect(piped.code, piped.stderr).toBe(0);
        expect(statSync(toFile).size).toBeGreaterThan(MEGABYTE);
        expect(statSync(throughPipe).size).toBe(statSync(toFile).size);
        expect(readFileSync(throughPipe).equals(readFileSync(toFile))).toBe(true);
        expect(piped.ms).toBeLessThan(60_000);
      },
      SLOW,
    );
  }

  it(
    "a slow reader still gets every byte",
    async () => {
      const command = [process.execPath, CLI, "export", BIG_RUN, "--db", db].map(quote).join(" ");
      const throughPipe = join(folder.path, "slow.pipe");
      // The reader sleeps before reading: the CLI has long finished writing into the pipe's buffer.
      const piped = await bash(`set -o pipefail; ${command} | (sleep 3; cat > ${quote(throughPipe)})`);
      expect(piped.code, piped.stderr).toBe(0);
      expect(statSync(throughPipe).size).toBeGreaterThan(MEGABYTE);
      const lines = readFileSync(throughPipe, "utf8").trimEnd().split("\n");
      expect(lines).toHaveLength(401);
      expect(JSON.parse(lines.at(-1) ?? "")).toMatchObject({ runId: BIG_RUN, name: "step-399" });
    },
    SLOW,
  );

  it(
    "a reader that stops early (head) ends the CLI quietly, without a stack",
    async () => {
      const command = [process.execPath, CLI, "export", BIG_RUN, "--db", db].map(quote).join(" ");
      const result = await bash(`${command} | head -c 100 > /dev/null; echo "status=\${PIPESTATUS[0]}" >&2`);
      expect(result.stderr).toMatch(/^status=0\n$/);
      expect(result.ms).toBeLessThan(60_000);
    },
    SLOW,
  );
});
