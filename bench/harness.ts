/**
 * The benchmark harness. Each benchmark prints one JSON object on its own line. Figures that are
 * compared with a bare baseline are measured in the same run, in interleaved rounds, and the
 * median round is reported: these shared machines are noisy, so one long loop would mislead.
 */
import postgres from "postgres";

export interface Benchmark {
  name: string;
  /** Returns the figures to print (numbers rounded by the harness). */
  run(context: BenchContext): Promise<Record<string, number | string>>;
}

export interface BenchContext {
  /** A fresh database on the server for this benchmark; dropped afterwards. */
  serverDatabase(): Promise<string>;
  log(message: string): void;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export async function time<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function adminUrl(): string {
  const base = process.env.DATABASE_URL;
  return base?.startsWith("postgres") ? base : "postgres://postgres@127.0.0.1:5432/postgres";
}

export async function withServerDatabases<T>(work: (context: BenchContext) => Promise<T>): Promise<T> {
  const created: string[] = [];
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => undefined });
  const context: BenchContext = {
    async serverDatabase() {
      const name = `backtrack_bench_${process.pid}_${created.length}_${Date.now().toString(36)}`;
      await admin.unsafe(`create database ${name}`);
      created.push(name);
      const url = new URL(adminUrl());
      url.pathname = `/${name}`;
      return url.toString();
    },
    log: (message) => process.stderr.write(`${message}\n`),
  };
  try {
    return await work(context);
  } finally {
    for (const name of created) await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/**
 * Takes each measurement once per round, rotating which goes first so that none always meets a
 * warmer (or colder) cache, and returns the median of each over the rounds. The first `warmup`
 * rounds (numbered 0 to warmup - 1; the measured ones follow) are run and discarded: a hot path
 * reaches V8's optimised code only after a few thousand calls, and the figures are steady-state.
 */
export async function interleaved<Key extends string>(
  rounds: number,
  measures: Record<Key, (round: number) => Promise<number>>,
  options: { warmup?: number } = {},
): Promise<Record<Key, number>> {
  const keys = Object.keys(measures) as Key[];
  const samples = Object.fromEntries(keys.map((key) => [key, [] as number[]])) as Record<Key, number[]>;
  const warmup = options.warmup ?? 0;
  for (let round = 0; round < warmup + rounds; round += 1) {
    for (let offset = 0; offset < keys.length; offset += 1) {
      const key = keys[(round + offset) % keys.length] as Key;
      const sample = await measures[key](round);
      if (round >= warmup) samples[key].push(sample);
    }
  }
  return Object.fromEntries(keys.map((key) => [key, median(samples[key])])) as Record<Key, number>;
}

/** A loop to compare: `step(round, index)` is one operation, index 0… of a round's run of them. */
export type Step = (round: number, index: number) => Promise<unknown>;

/**
 * Throughput of loops that each take one round-trip per operation (writes that wait for a commit),
 * compared in the same run. Each round gives every loop `perRound` operations, in blocks of
 * `block` taken in turn (the order rotating every block), so that all loops meet the same disk and
 * CPU conditions: on a shared machine the latency of an fsync drifts within seconds, and loops
 * timed a round apart can differ by a tenth for that reason alone. Returns operations per second
 * of each loop over all measured rounds; the first `warmup` rounds are run and discarded.
 */
export async function alternating<Key extends string>(
  steps: Record<Key, Step>,
  options: { rounds: number; perRound: number; block?: number; warmup?: number },
): Promise<Record<Key, number>> {
  const keys = Object.keys(steps) as Key[];
  const block = options.block ?? 5;
  const warmup = options.warmup ?? 0;
  const totalMs = Object.fromEntries(keys.map((key) => [key, 0])) as Record<Key, number>;
  let turn = 0;
  for (let round = 0; round < warmup + options.rounds; round += 1) {
    for (let start = 0; start < options.perRound; start += block) {
      const end = Math.min(start + block, options.perRound);
      for (let offset = 0; offset < keys.length; offset += 1) {
        const key = keys[(turn + offset) % keys.length] as Key;
        const started = performance.now();
        for (let index = start; index < end; index += 1) await steps[key](round, index);
        if (round >= warmup) totalMs[key] += performance.now() - started;
      }
      turn += 1;
    }
  }
  const operations = options.rounds * options.perRound;
  return Object.fromEntries(keys.map((key) => [key, (operations / totalMs[key]) * 1000])) as Record<Key, number>;
}
