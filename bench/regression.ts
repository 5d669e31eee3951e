/**
 * Regression benchmarks (issue "Replay-based regression"):
 * - diff: diffRecords over two runs of 100,000 decision points each (and of 10,000, to show it is
 *   linear), in memory after loading: the records are appended to a MemStore through the journal's
 *   own path, read back with history(), and only the diff is timed. Run B differs from A the way
 *   two real runs do: every tool-call id differs, argument keys come in another order, and 10
 *   charges (args and outputs) differ.
 * - realign: the same, with 10 extra decisions inserted into B, diffed with { realign: true }.
 * The bare baseline, measured in the same rounds: a positional loop comparing the JSON text of
 * each pair of records (no decision points, no canonical JSON, no hashes): the floor of any diff
 * that reads every record, and a yardstick for how loaded the machine is.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { diffRecords } from "../lib/inspect/diff";
import { MemStore } from "../lib/journal/memory-store";
import type { JournalRecord } from "../lib/journal/types";
import { median, time, type Benchmark } from "./harness";

interface Variant {
  prefix: string;
  /** Turns whose charge differs from run A's. */
  changed: Set<number>;
  /** Turns after which B makes an extra call (an extra model step and its tool call). */
  inserted: Set<number>;
}

/** Appends a run of `points` decision points (one model step + one tool call per turn). */
async function writeRun(store: MemStore, runId: string, points: number, variant: Variant): Promise<JournalRecord[]> {
  await store.append({ runId, name: "run:start", kind: "header", payload: { input: "Audit the ledger.", agent: "auditor", model: "bench", tools: ["charge"] } });
  let turn = 0;
  const step = async (amount: number, account: string) => {
    const toolCallId = `${variant.prefix}-${turn}`;
    const args = variant.prefix === "a" ? { account, amount } : { amount, account };
    const message = {
      role: "assistant",
      content: [
        { type: "text", text: `Checking ${account}.` },
        { type: "tool-call", toolCallId, toolName: "charge", args },
      ],
    };
    await store.append({ runId, name: `turn:${turn}`, kind: "model", payload: { message, usage: { inputTokens: 40, outputTokens: 12 }, model: "bench", durationMs: 1 } });
    await store.append({ runId, name: `turn:${turn}:call:0:attempt`, kind: "attempt", payload: { toolCallId, toolName: "charge", args, idempotencyKey: "k" } });
    const result = { account, charged: amount, receipt: `rcpt-${account}-${amount}` };
    await store.append({
      runId,
      name: `turn:${turn}:call:0:result`,
      kind: "tool_result",
      payload: { toolCallId, toolName: "charge", args, result, isError: false, durationMs: 1 },
    });
    turn += 1;
  };
  for (let index = 0; index < points / 2; index += 1) {
    await step(variant.changed.has(index) ? 5000 : 500, `acct-${index}`);
    if (variant.inserted.has(index)) await step(1, `extra-${index}`);
  }
  return store.history(runId);
}

function spread(count: number, within: number): Set<number> {
  return new Set(Array.from({ length: count }, (_, index) => Math.floor(((index + 1) * within) / (count + 1))));
}

/** Two loaded runs; the store that held them is dropped, so that only the loaded records stay in memory. */
async function pair(points: number, inserted: number) {
  const store = new MemStore({ payloadLimitBytes: 1 << 20 });
  const a = await writeRun(store, "a", points, { prefix: "a", changed: new Set(), inserted: new Set() });
  const b = await writeRun(store, "b", points, { prefix: "b", changed: spread(10, points / 2), inserted: spread(inserted, points / 2) });
  await store.close();
  return { a, b };
}

// A full collection before each timed call, so that no round pays for the garbage of the one before.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

function bareCompare(a: JournalRecord[], b: JournalRecord[]): number {
  let differing = 0;
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    if (JSON.stringify(a[index]?.payload) !== JSON.stringify(b[index]?.payload)) differing += 1;
  }
  return differing;
}

async function timeDiff(a: JournalRecord[], b: JournalRecord[], rounds: number, realign = false) {
  const times: number[] = [];
  const cpu: number[] = [];
  const bare: number[] = [];
  let last;
  for (let round = 0; round < rounds; round += 1) {
    last = undefined;
    collect();
    const before = process.cpuUsage();
    const { ms, value } = await time(async () => diffRecords(a, b, { realign }));
    const used = process.cpuUsage(before);
    times.push(ms);
    cpu.push((used.user + used.system) / 1000);
    last = value;
    collect();
    bare.push((await time(async () => bareCompare(a, b))).ms);
  }
  return { ms: median(times), cpuMs: median(cpu), bareMs: median(bare), diff: last };
}

const diff: Benchmark = {
  name: "diff",
  async run(context) {
    context.log("diff: writing 2 × 10,000 and 2 × 100,000 decision points to a MemStore…");
    let small: Awaited<ReturnType<typeof pair>> | undefined = await pair(10_000, 0);
    // Warm up the JIT on the small pair first, so that neither size pays for it.
    await timeDiff(small.a, small.b, 3);
    const ten = await timeDiff(small.a, small.b, 9);
    small = undefined;
    const large = await pair(100_000, 0);
    const hundred = await timeDiff(large.a, large.b, 7);
    if (hundred.diff?.pointsA !== 100_000 || hundred.diff.summary.changed !== 20) throw new Error(`unexpected diff: ${JSON.stringify(hundred.diff?.summary)}`);
    return {
      diff100kMs: hundred.ms,
      diff10kMs: ten.ms,
      // CPU time of the process during the call (this machine is shared: wall time includes waiting).
      diff100kCpuMs: hundred.cpuMs,
      diff10kCpuMs: ten.cpuMs,
      // 1.0 is perfectly linear: the 100k diff takes ten times the 10k one (wall time, and CPU time).
      linearity: hundred.ms / (10 * ten.ms),
      linearityCpu: hundred.cpuMs / (10 * ten.cpuMs),
      bare100kMs: hundred.bareMs,
      diff100kVsBare: hundred.ms / hundred.bareMs,
      records100k: large.a.length,
    };
  },
};

const realign: Benchmark = {
  name: "realign",
  async run(context) {
    context.log("realign: 2 × 100,000 decision points, 10 extra decisions in B…");
    const large = await pair(100_000, 10);
    await timeDiff(large.a, large.b, 2);
    const positional = await timeDiff(large.a, large.b, 5);
    const realigned = await timeDiff(large.a, large.b, 5, true);
    if (!realigned.diff?.realign?.applied) throw new Error("realignment was not applied");
    return {
      positional100kMs: positional.ms,
      realign100kMs: realigned.ms,
      positionalChanged: positional.diff?.summary.changed ?? -1,
      realignedChanged: realigned.diff.summary.changed,
      realignedAdded: realigned.diff.summary.added,
      edits: realigned.diff.realign.edits ?? -1,
    };
  },
};

export const regressionBenchmarks: Benchmark[] = [diff, realign];
