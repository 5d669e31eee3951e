/**
 * The library as another Node project uses it: the built package (dist/, from `npm run build:lib`,
 * reached through package.json "exports") and the example, in plain Node.js with no TypeScript
 * loader. Run by `npm run test:lib` (node --test) after the build, outside the vitest suite: a
 * unit run never rebuilds or deletes dist/. The example journals into a fresh database on the
 * PostgreSQL server (DATABASE_URL's server, or the local one), dropped at the end.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import postgres from "postgres";

const base = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : "postgres://postgres@127.0.0.1:5432/postgres";
const name = `backtrack_lib_${process.pid}_${Date.now().toString(36)}`;
const url = new URL(base);
url.pathname = `/${name}`;
const admin = postgres(base, { max: 1, onnotice: () => undefined, connect_timeout: 10 });

before(async () => {
  await admin.unsafe(`create database ${name}`);
});
after(async () => {
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
});

test("the built package journals the example run into DATABASE_URL", async () => {
  assert.ok(existsSync("dist/index.js"), "dist/index.js is missing: run npm run build:lib first");
  assert.ok(existsSync("dist/types/lib/index.d.ts"), "dist/types/lib/index.d.ts is missing: run npm run build:lib first");
  const output = execFileSync(process.execPath, ["examples/journal-a-run.mjs", "example-run-1"], {
    env: { ...process.env, DATABASE_URL: url.toString() },
    encoding: "utf8",
  });
  assert.match(output, /example-run-1: Order A-17 has shipped with DHL\. \(2 turns/);
  assert.ok(output.includes("AssistantTurn → ToolCompleted → AssistantTurn"), output);
  assert.ok(output.includes('n1["tool: lookupOrder"]'), output);
  // Read back through the built package as well: "backtrack" resolves to dist/ by package.json "exports".
  const { openStore } = await import("backtrack");
  const store = await openStore({ url: url.toString() });
  try {
    const run = await store.run("example-run-1");
    assert.equal(run?.agent, "support");
    assert.equal(run?.status, "complete");
  } finally {
    await store.close();
  }
});

test("the subpath entries resolve through exports and share one copy of each class with the main entry", async () => {
  const main = await import("backtrack");
  const testing = await import("backtrack/testing");
  const demo = await import("backtrack/demo");
  assert.equal(typeof testing.MemStore, "function");
  assert.equal(typeof demo.demoRegistry, "function");
  assert.equal("demoRegistry" in main, false);
  assert.ok(new testing.SimulatedCrashError(1, "before", "x") instanceof main.BacktrackError);
});

test("the AI SDK example journals its generateText run, and a second run resumes it without a model call", async () => {
  const run = () => execFileSync(process.execPath, ["examples/ai-sdk-app.mjs", "ai-sdk-example-1"], { env: { ...process.env, DATABASE_URL: url.toString() }, encoding: "utf8" });
  assert.match(run(), /ai-sdk-example-1: It is sunny in Lisbon, 24°C\./);
  const { openStore, renderMermaid } = await import("backtrack");
  const store = await openStore({ url: url.toString() });
  try {
    const names = (await store.history("ai-sdk-example-1")).map((record) => record.name);
    assert.deepEqual(names, ["run:start", "turn:0", "turn:0:call:0:attempt", "turn:0:call:0:result", "turn:1", "run:complete"]);
    assert.match(run(), /ai-sdk-example-1: It is sunny in Lisbon, 24°C\./);
    assert.equal((await store.history("ai-sdk-example-1")).length, names.length);
    const summary = await store.run("ai-sdk-example-1");
    assert.equal(summary?.agent, "weather-app");
    assert.equal(summary?.status, "complete");
    assert.ok((await renderMermaid(store, "ai-sdk-example-1")).includes('["tool: weather"]'));
  } finally {
    await store.close();
  }
});
