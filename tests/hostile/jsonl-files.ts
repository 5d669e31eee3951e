/**
 * Generated JSONL imports for the hostile tests (and e2e/hostile.spec.ts): runs in the `export`
 * format, header-only or complete, of a chosen size. Dependency-free, so Playwright specs can use it.
 */
import { createWriteStream } from "node:fs";

export interface GeneratedRuns {
  /** Run ids are `${prefix}-${index}`. */
  prefix: string;
  runs: number;
  /** Records per run, the run:start header included. */
  recordsPerRun: number;
  /** Characters of filler text in each value record's payload. */
  payloadChars?: number;
  /** End each run with run:complete (else it is unfinished: recovery would see it). */
  complete?: boolean;
  /** The header's agent; null leaves the field out. */
  agent?: string | null;
}

/** The lines of the generated runs, one record each, run after run. */
export function* generatedLines(options: GeneratedRuns): Generator<string> {
  const filler = "x".repeat(options.payloadChars ?? 200);
  const at = "2026-12-01T00:00:00.000Z";
  for (let index = 0; index < options.runs; index += 1) {
    const runId = `${options.prefix}-${index}`;
    const agent = options.agent === undefined ? "auditor" : options.agent;
    const header = { ...(agent === null ? {} : { agent }), model: "demo/v1", input: `Audit batch ${index}.`, tools: [] };
    yield JSON.stringify({ runId, seq: 0, name: "run:start", kind: "header", payload: header, createdAt: at });
    const values = options.recordsPerRun - 1 - (options.complete ? 1 : 0);
    for (let seq = 1; seq <= values; seq += 1) {
      yield JSON.stringify({ runId, seq, name: `step:${seq}`, kind: "value", payload: { seq, text: filler }, createdAt: at });
    }
    if (options.complete) {
      yield JSON.stringify({ runId, seq: values + 1, name: "run:complete", kind: "value", payload: { value: { text: "done" } }, createdAt: at });
    }
  }
}

export function generatedText(options: GeneratedRuns): string {
  return [...generatedLines(options)].join("\n") + "\n";
}

/** Writes the generated runs to `path`, streaming; resolves to the file's size in bytes. */
export async function writeGenerated(path: string, options: GeneratedRuns): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  for (const line of generatedLines(options)) {
    bytes += Buffer.byteLength(line) + 1;
    if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return bytes;
}
