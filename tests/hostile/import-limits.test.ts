/**
 * Issue 12 item 2: one documented import limit for HTTP (64 MiB: 413 above it, naming it), never
 * a body whose length differs from its Content-Length, Next's proxy letting bodies just over the
 * limit through, and `backtrack import` streaming files above the HTTP limit, with a progress
 * line on a terminal only. Item 3's delete prompt is checked on a terminal here too.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import nextConfig from "@/next.config";
import { HTTP_IMPORT_LIMIT_BYTES, importLines } from "@/lib/journal/import";
import { readImportBody } from "@/lib/journal/import-body";
import { MemStore } from "@/lib/journal/memory-store";
import { freshServerDatabase, tempFolder } from "../helpers/databases";
import { runCli } from "../helpers/processes";
import { generatedLines, generatedText, writeGenerated } from "./jsonl-files";

const MiB = 1024 * 1024;

function post(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request("http://127.0.0.1/api/import", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe("the HTTP import limit", () => {
  it("is 64 MiB, and Next's proxy lets bodies just over it through (not its default 10 MB)", () => {
    expect(HTTP_IMPORT_LIMIT_BYTES).toBe(64 * MiB);
    const proxyLimit = Number(nextConfig.experimental?.proxyClientMaxBodySize);
    expect(proxyLimit).toBeGreaterThan(HTTP_IMPORT_LIMIT_BYTES);
    expect(proxyLimit).toBeLessThanOrEqual(HTTP_IMPORT_LIMIT_BYTES + 2 * MiB);
  });

  it("refuses a declared length over the limit with import_too_large naming the limit, before reading", async () => {
    const refused = readImportBody(post("{}", { "content-length": String(64 * MiB + 1) }));
    await expect(refused).rejects.toMatchObject({ code: "import_too_large", limitBytes: 64 * MiB, message: expect.stringContaining("64 MiB") });
  });

  it("refuses a body without a length that grows over the limit", async () => {
    const chunk = new Uint8Array(MiB);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent > 70) controller.close();
        else controller.enqueue(chunk);
      },
    });
    await expect(readImportBody(post(stream))).rejects.toMatchObject({ code: "import_too_large" });
    expect(sent).toBeLessThanOrEqual(66);
  });

  it("refuses a body whose length differs from its Content-Length (a body cut on the way)", async () => {
    const text = generatedText({ prefix: "cut", runs: 2, recordsPerRun: 3 });
    const declared = Buffer.byteLength(text) + 5_000;
    await expect(readImportBody(post(text, { "content-length": String(declared) }))).rejects.toMatchObject({
      code: "length_mismatch",
      declaredBytes: declared,
      receivedBytes: Buffer.byteLength(text),
    });
  });

  it("reads a body of exactly its Content-Length", async () => {
    const text = "é".repeat(1000);
    expect(await readImportBody(post(text, { "content-length": String(Buffer.byteLength(text)) }))).toBe(text);
  });
});

describe("streamed imports", () => {
  it("stage records while the lines are still being read, not after the whole file", async () => {
    const total = 3_000;
    let read = 0;
    async function* lines() {
      for (const line of generatedLines({ prefix: "stream", runs: 3, recordsPerRun: total / 3, payloadChars: 500 })) {
        read += 1;
        yield line;
      }
    }
    const readAtProgress: number[] = [];
    const result = await importLines(new MemStore(), lines(), { chunkBytes: 64 * 1024, onProgress: () => readAtProgress.push(read) });
    expect(result.imported).toBe(total);
    expect(readAtProgress.length).toBeGreaterThan(10);
    expect(readAtProgress[0]).toBeLessThan(total / 10);
  });
});

describe("backtrack import of a file above the HTTP limit: server", () => {
  let database: { url: string; drop: () => Promise<void> };
  const folder = tempFolder("backtrack-limits-");
  let big: string;
  let bytes: number;

  beforeAll(async () => {
    database = await freshServerDatabase();
    big = join(folder.path, "above-the-limit.jsonl");
    bytes = await writeGenerated(big, { prefix: "big", runs: 330, recordsPerRun: 200, payloadChars: 900, complete: true });
  });
  afterAll(async () => {
    await database.drop();
    folder.remove();
  });

  it("imports every record of a file over 64 MiB, printing one line and nothing on stderr in a pipe", async () => {
    expect(bytes).toBeGreaterThan(HTTP_IMPORT_LIMIT_BYTES);
    const done = await runCli(["import", big, "--db", database.url]);
    expect(done.stderr).toBe("");
    expect(done.stdout).toBe("imported 66000 records in 330 run(s): big-0, big-1, big-2, big-3, big-4, big-5, big-6, big-7, big-8, big-9 and 320 more\n");
    expect(done.code).toBe(0);
    const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
    try {
      const [row] = await sql<
        Array<{ records: string; runs: string }>
      >`select (select count(*) from records) as records, (select count(*) from runs where origin = 'import' and status = 'complete') as runs`;
      expect(row).toEqual({ records: "66000", runs: "330" });
    } finally {
      await sql.end();
    }
  }, 180_000);

  /** Runs the CLI on a pseudo-terminal (script(1)); `input` is typed into it. Resolves to what the terminal showed. */
  function onTerminal(args: string[], input = ""): Promise<{ code: number | null; screen: string }> {
    return new Promise((resolve) => {
      const command = ["node", "bin/backtrack.mjs", ...args].map((part) => `'${part}'`).join(" ");
      const child = spawn("script", ["-qec", command, "/dev/null"], { stdio: ["pipe", "pipe", "pipe"] });
      let screen = "";
      child.stdout.on("data", (chunk: Buffer) => (screen += chunk.toString()));
      child.stdin.end(input);
      child.on("exit", (code) => resolve({ code, screen }));
    });
  }

  it("shows a progress line on a terminal", async () => {
    const file = join(folder.path, "progress.jsonl");
    await writeGenerated(file, { prefix: "progress", runs: 10, recordsPerRun: 1_000, payloadChars: 900 });
    const { code, screen } = await onTerminal(["import", file, "--db", database.url]);
    expect(code).toBe(0);
    expect(screen).toMatch(/\r imported \d+ records \(\d+\.\d MB\)/);
    expect(screen).toContain("imported 10000 records in 10 run(s)");
  }, 120_000);

  it("backtrack delete asks on a terminal: no keeps the run, yes deletes it", async () => {
    const kept = await onTerminal(["delete", "progress-0", "--db", database.url], "n\n");
    expect(kept.screen).toContain('delete run "progress-0" and all its records? This cannot be undone. [y/N]');
    expect(kept.screen).toContain('nothing deleted: "progress-0" is still there');
    expect(kept.code).toBe(2);
    const deleted = await onTerminal(["delete", "progress-0", "--db", database.url], "y\n");
    expect(deleted.screen).toContain("deleted 1 run (progress-0), 1000 records, 0 leases");
    expect(deleted.code).toBe(0);
  }, 120_000);
});
