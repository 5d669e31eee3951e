/**
 * `backtrack recover`, `approve` and `answer` against a server database holding the recovery demo
 * runs (written by the real loop) and a crashed run. The first recover is a real process (another
 * process than the one that crashed); the other commands run `main(argv)` in this process.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPause } from "@/lib/agent/pauses";
import { billingAgent } from "@/lib/demo/agents";
import { RECOVERY_RUNS } from "@/lib/demo/recovery-runs";
import { crashAt, SimulatedCrashError } from "@/lib/journal/faults";
import { openStore, type PostgresStore } from "@/lib/store";
import { runMain } from "../helpers/cli";
import { freshServerDatabase } from "../helpers/databases";

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe("backtrack recover, approve, answer, resolve", () => {
  let database: Awaited<ReturnType<typeof freshServerDatabase>>;
  let store: PostgresStore;

  function cli(...args: string[]): Promise<Ran> {
    return runMain([...args, "--db", database.url]);
  }

  function spawnCli(...args: string[]): Promise<Ran> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["bin/backtrack.mjs", ...args, "--db", database.url], { stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("error", reject);
      child.on("exit", (code) => resolve({ code, stdout, stderr }));
    });
  }

  beforeAll(async () => {
    database = await freshServerDatabase();
    store = await openStore({ url: database.url });
    for (const run of RECOVERY_RUNS) await run.write(store).catch((error: unknown) => expect(isPause(error)).toBe(true));
    // A billing run whose process died after its model turn.
    store.restart();
    store.faults = crashAt(3);
    await expect(billingAgent(store).run("order-77", "Please charge order 77.")).rejects.toBeInstanceOf(SimulatedCrashError);
    store.faults = undefined;
    store.restart();
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it("recover drives the crashed run to completion, re-surfaces each pause, and prints a summary", async () => {
    const ran = await spawnCli("recover", "--lease-ttl", "5000");
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    const lines = ran.stdout.trim().split("\n");
    expect(lines).toHaveLength(6);
    expect(lines).toContain("complete order-77");
    expect(lines.find((line) => line.includes("refund-900"))).toMatch(/^paused\s+refund-900\s+run "refund-900" waits for approval of issueRefund$/);
    expect(lines.find((line) => line.includes("follow-up-3"))).toMatch(/sleeps until \d{4}-/);
    expect(lines.find((line) => line.includes("concierge-5"))).toContain("asks: Which evening works for you, Friday or Saturday?");
    expect(lines.find((line) => line.includes("payout-9"))).toContain("halted: the outcome of sendPayout is unknown");
    expect(lines.at(-1)).toBe("recovered 5 runs: 1 driven to completion, 4 paused, 0 failed");
    expect((await store.run("order-77"))?.status).toBe("complete");
    // The sleeping run's wake-up is now a durable timer.
    const timers = await store.client.query<{ run_id: string }>("SELECT run_id FROM timers");
    expect(timers.map((row) => row.run_id)).toEqual(["follow-up-3"]);
  });

  it("recover --json reports every run with the library's field names", async () => {
    const ran = await cli("recover", "--json");
    expect(ran.code).toBe(0);
    const report = JSON.parse(ran.stdout) as {
      n: number;
      summary: Record<string, number>;
      runs: Array<{ runId: string; outcome: string; pause?: { reason: string } }>;
      error: unknown;
    };
    expect(report.n).toBe(4);
    expect(report.summary).toMatchObject({ complete: 0, paused: 4, failed: 0 });
    expect(Object.fromEntries(report.runs.map((run) => [run.runId, run.pause?.reason]))).toEqual({
      "concierge-5": "interrupt",
      "follow-up-3": "sleep",
      "payout-9": "halt",
      "refund-900": "approval",
    });
    expect(report.error).toBeNull();
  });

  it("approve records who approved and resumes the run to its answer; a second decision is refused", async () => {
    const ran = await cli("approve", "refund-900", "--by", "ana");
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe("approved issueRefund in refund-900 (by ana)\ncomplete refund-900: Refunded $900 for order 77.\n");
    expect((await store.record("refund-900", "turn:0:call:0:approval"))?.payload).toMatchObject({ approved: true, by: "ana", toolName: "issueRefund" });
    const again = await cli("approve", "refund-900", "--deny");
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('run "refund-900" is not waiting for an approval (it is complete)');
  });

  it("answer resumes an interrupted run with the answer; approve refuses a run that is not waiting for approval", async () => {
    const ran = await cli("answer", "concierge-5", "Saturday", "--by", "bo", "--json");
    expect(ran.code).toBe(0);
    const report = JSON.parse(ran.stdout) as { answer: { text: string; by: string }; resumed: { outcome: string }; run: { status: string } };
    expect(report.answer).toMatchObject({ text: "Saturday", by: "bo" });
    expect(report.resumed.outcome).toBe("complete");
    expect(report.run.status).toBe("complete");
    const halted = await cli("approve", "payout-9");
    expect(halted.code).toBe(2);
    expect(halted.stderr).toContain("not waiting for an approval (it is paused, waiting for halt)");
  });

  it("resolve --retry runs the halted payout once more and completes it; unclear usage and runs that are not halted exit 2", async () => {
    const none = await cli("resolve", "payout-9");
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("exactly one of --succeeded, --failed or --retry");
    const mixed = await cli("resolve", "payout-9", "--retry", "--result", "{}");
    expect(mixed.code).toBe(2);
    const notHalted = await cli("resolve", "concierge-5", "--failed");
    expect(notHalted.code).toBe(2);
    expect(notHalted.stderr).toContain("is not waiting for a resolution of an unknown outcome");
    const ran = await cli("resolve", "payout-9", "--retry", "--by", "ops", "--json");
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    const report = JSON.parse(ran.stdout) as { resolution: { outcome: string; by: string }; resumed: { outcome: string }; run: { status: string } };
    expect(report.resolution).toMatchObject({ outcome: "retry", by: "ops" });
    expect(report.resumed.outcome).toBe("complete");
    expect(report.run.status).toBe("complete");
    expect(await store.record("payout-9", "turn:0:call:0:retry:1")).toBeDefined();
  });

  it("refuses a non-positive lease TTL and an unknown run as bad input", async () => {
    const ttl = await cli("recover", "--lease-ttl", "-5");
    expect(ttl.code).toBe(2);
    expect(ttl.stderr).toContain("--lease-ttl must be a positive number of milliseconds");
    const unknown = await cli("answer", "no-such-run", "hi");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no run with id "no-such-run"');
  });
});
