/**
 * The CLI on an embedded database and on the server: `replay`, `replay --check` exit codes,
 * `--strip-memory`, `diff`, and models and agents from a backtrack.config.ts. Commands run as
 * `main(argv)` in this process (tests/helpers/cli.ts); the real process (`node bin/backtrack.mjs`)
 * is spawned where the process is the point: a check's exit code, the embedded database reached
 * over its owner's loopback, and two processes replaying at once.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HeaderPayload } from "@/lib/agent/payloads";
import type { RunDiff } from "@/lib/inspect/diff";
import { openStore } from "@/lib/store";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { runMain } from "../helpers/cli";
import { embeddedFolder, freshServerDatabase, tempFolder } from "../helpers/databases";
import { writeDemoRuns } from "./helpers";

const REPO = resolve(__dirname, "../..");

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI in this process, with the environment a spawned one gets below. */
function cli(args: string[]): Promise<Outcome> {
  return runMain(args, { BACKTRACK_CONFIG: undefined, DATABASE_URL: undefined });
}

/** The real CLI as a child process. */
function spawnCli(args: string[]): Promise<Outcome> {
  const env = { ...process.env };
  delete env.BACKTRACK_CONFIG;
  delete env.DATABASE_URL;
  return new Promise((done) => {
    execFile(process.execPath, [join(REPO, "bin/backtrack.mjs"), ...args], { cwd: REPO, env, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

const lib = (path: string) => JSON.stringify(join(REPO, path));

/** The planner's research tool no longer delegates to a sub-agent: its recorded replay ends with another answer. */
const PLANNER_WITHOUT_SUBAGENT = `
import { Agent, tool } from ${lib("lib/index.ts")};
import { demoModel } from ${lib("lib/demo/index.ts")};
import { researchTool } from ${lib("lib/demo/tools.ts")};
const schema = researchTool(() => { throw new Error("unused"); }).input;
export default {
  agents: [{
    name: "planner",
    create: (store, model) => new Agent({ name: "planner", store, model: model ?? demoModel(), system: "You plan trips.",
      tools: [tool({ name: "research", description: "Answers from a cache.", input: schema, execute: () => ({ answer: "cached" }) })] }),
  }],
};`;

/** chargeCard now asks a sub-agent first: the recorded replay needs a model turn that was never recorded. */
const BILLING_WITH_SUBAGENT = `
import { Agent, tool } from ${lib("lib/index.ts")};
import { demoModel } from ${lib("lib/demo/index.ts")};
import { chargeCard } from ${lib("lib/demo/tools.ts")};
import { researcherAgent } from ${lib("lib/demo/agents.ts")};
export default {
  agents: [{
    name: "billing",
    create: (store, model) => new Agent({ name: "billing", store, model: model ?? demoModel(), system: "You are the billing agent.",
      tools: [tool({ name: "chargeCard", description: "Charge after a check.", input: chargeCard.input,
        execute: async (args, ctx) => { await ctx.runAgent(researcherAgent(store, model), "Is this fine?"); return chargeCard.execute(args, ctx); } })] }),
  }],
};`;

/** A provider-spec (AI SDK v3) model, scripted: it charges $50, then confirms. */
const AI_SDK_MODEL = `
function stream(parts) {
  return new ReadableStream({ start(controller) { for (const part of parts) controller.enqueue(part); controller.close(); } });
}
const usage = { inputTokens: { total: 12 }, outputTokens: { total: 4 } };
const acme = {
  specificationVersion: "v3", provider: "acme", modelId: "scripted", supportedUrls: {},
  async doGenerate() { throw new Error("streaming only"); },
  async doStream(options) {
    const answered = options.prompt.some((message) => message.role === "tool");
    const parts = answered
      ? [{ type: "text-delta", id: "t", delta: "Charged fifty." }, { type: "finish", usage, finishReason: "stop" }]
      : [{ type: "tool-call", toolCallId: "acme-1", toolName: "chargeCard", input: JSON.stringify({ orderId: "123", amount: 50 }) }, { type: "finish", usage, finishReason: "tool-calls" }];
    return { stream: stream(parts) };
  },
};
export default { models: { "acme/scripted": acme } };`;

describe("the CLI on an embedded database", () => {
  const folder = embeddedFolder();
  const configs = tempFolder("backtrack-config-");
  let store: PostgresStore;
  let db: string;

  const config = (name: string, text: string) => {
    const path = join(configs.path, `${name}.config.ts`);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(async () => {
    db = folder.url;
    // A config is an ES module: a .ts one lives in a "type": "module" package (or is named .mts).
    writeFileSync(join(configs.path, "package.json"), JSON.stringify({ type: "module" }));
    store = await openStore({ url: db });
    await writeDemoRuns(store, "order-123", "trip-42", "chat-42");
  });
  afterAll(async () => {
    await store.close();
    folder.remove();
    configs.remove();
  });

  it("replay --check exits 0 when the replay against the recorded outputs is identical", async () => {
    const outcome = await cli(["replay", "trip-42", "--check", "--json", "--db", db]);
    expect(outcome.stderr).toBe("");
    expect(outcome.code).toBe(0);
    const check = JSON.parse(outcome.stdout) as { ok: boolean; newRunId: string; diff: Pick<RunDiff, "summary" | "divergentAt"> };
    expect(check).toMatchObject({ ok: true, diff: { divergentAt: null, summary: { same: 3, changed: 0 } } });
    expect(((await store.record(check.newRunId, "run:start"))?.payload as HeaderPayload).replayOf).toBe("trip-42");
  });

  it("replay --check exits 1 when the replayed loop ends with a different final answer", async () => {
    // The real process: its exit code, and the embedded database reached through this process, its owner.
    const outcome = await spawnCli(["replay", "trip-42", "--check", "--config", config("planner", PLANNER_WITHOUT_SUBAGENT), "--db", db]);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain("check FAILED");
    expect(outcome.stdout).toContain("reason: the replay ended with a different final answer");
    expect(outcome.stdout).toContain("expected: Plan: Cheapest: FR 8362");
  });

  it("replay --check exits 1 when the replayed loop asks for a model output that was never recorded", async () => {
    const outcome = await cli(["replay", "order-123", "--check", "--json", "--config", config("billing", BILLING_WITH_SUBAGENT), "--db", db]);
    expect(outcome.code).toBe(1);
    const check = JSON.parse(outcome.stdout) as { ok: boolean; code: string; reason: string; actual: string | null };
    expect(check).toMatchObject({ ok: false, code: "no_recorded_output", actual: null });
    expect(check.reason).toMatch(/asked for model turn 3, but only 2 were recorded/);
  });

  it("replay --model prints the new run id and the diff summary; --json gives { newRunId, diff }", async () => {
    const text = await cli(["replay", "order-123", "--model", "demo/v2", "--db", db]);
    expect(text.code).toBe(0);
    const [id, ...rest] = text.stdout.trim().split("\n");
    expect(id).toMatch(/^order-123~replay-\d+$/);
    expect(rest.join("\n")).toContain("diff: 0 same, 3 changed, 0 missing, 0 added; first divergence at #0 (model decision at step 0)");

    const json = await cli(["replay", "order-123", "--model", "demo/v2", "--json", "--db", db]);
    const body = JSON.parse(json.stdout) as { newRunId: string; diff: { summary: object; divergentAt: number } };
    expect(body.newRunId).not.toBe(id);
    expect(body.diff).toEqual({ summary: { same: 0, changed: 3, missing: 0, added: 0 }, divergentAt: 0 });
    expect(body).not.toHaveProperty("memoryStripped");
  });

  it("replay --strip-memory discloses what it dropped and kept; without provenance it exits 2", async () => {
    const outcome = await cli(["replay", "chat-42", "--model", "demo/v1", "--strip-memory", "--json", "--db", db]);
    expect(outcome.code).toBe(0);
    const body = JSON.parse(outcome.stdout) as {
      newRunId: string;
      diff: { divergentAt: number };
      memoryStripped: { systemTextEdited: boolean; workingMemoryRetained: boolean; droppedMessages: number };
    };
    expect(body.diff.divergentAt).toBe(0);
    expect(body.memoryStripped).toMatchObject({ systemTextEdited: false, workingMemoryRetained: true, droppedMessages: 1 });

    const refused = await cli(["replay", "order-123", "--strip-memory", "--model", "demo/v1", "--db", db]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/no usable :memctx provenance record/);
  });

  it("diff prints the entries and the positional caveat; --json gives the RunDiff; --realign marks it", async () => {
    await writeDemoRuns(store, "order-123~v2");
    const text = await cli(["diff", "order-123", "order-123~v2", "--db", db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("first divergence at #0");
    expect(text.stdout).toContain("chargeCard succeeded");
    expect(text.stdout).toContain("the comparison is positional");
    const json = await cli(["diff", "order-123", "order-123~v2", "--json", "--realign", "--db", db]);
    const diff = JSON.parse(json.stdout) as RunDiff;
    expect(diff.alignment).toBe("realigned");
    expect(diff.steps[1]?.detail).toMatchObject({ outputA: { charged: 500 }, outputB: { charged: 5000 } });
    const unknown = await cli(["diff", "order-123", "nope", "--db", db]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no run with id "nope"');
  });

  it("replays under an AI SDK model registered in backtrack.config.ts, with the agent's tools", async () => {
    const outcome = await cli(["replay", "order-123", "--model", "acme/scripted", "--json", "--config", config("acme", AI_SDK_MODEL), "--db", db]);
    expect(outcome.stderr).toBe("");
    const body = JSON.parse(outcome.stdout) as { newRunId: string; model: string };
    expect(body.model).toBe("acme/scripted");
    expect(((await store.record(body.newRunId, "run:start"))?.payload as HeaderPayload).model).toBe("acme/scripted");
    expect((await store.record(body.newRunId, "turn:0:call:0:result"))?.payload).toMatchObject({ toolName: "chargeCard", result: { charged: 50 } });
    const unknown = await cli(["replay", "order-123", "--model", "acme/other", "--db", db]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no model named "acme\/other".*recorded|known: demo\/v1/);
  });

  it("rejects bad usage with exit 2", async () => {
    expect((await cli(["replay", "order-123", "--check", "--model", "demo/v2", "--db", db])).code).toBe(2);
    expect((await cli(["replay", "order-123", "--config", join(configs.path, "missing.ts"), "--db", db])).code).toBe(2);
  });
});

describe("the CLI on the server", () => {
  let database: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    database = await freshServerDatabase();
    const store = await openStore({ url: database.url });
    await writeDemoRuns(store, "order-123");
    await store.close();
  });
  afterAll(async () => {
    await database.drop();
  });

  it("replay --check exits 0 for an identical replay", async () => {
    const outcome = await cli(["replay", "order-123", "--check", "--db", database.url]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("check passed");
  });

  it("gives two processes replaying the same run at once two different ids", async () => {
    const outcomes = await Promise.all([1, 2].map(() => spawnCli(["replay", "order-123", "--model", "demo/v2", "--json", "--db", database.url])));
    const ids = outcomes.map((outcome) => (JSON.parse(outcome.stdout) as { newRunId: string }).newRunId);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^order-123~replay-\d+$/);
  });
});
