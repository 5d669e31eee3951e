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

/** Operations per second of `operation`, called `count` times in a row. */
export async function rate(count: number, operation: (index: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < count; index += 1) await operation(index);
  return (count / (performance.now() - started)) * 1000;
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
