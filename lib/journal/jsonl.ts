/**
 * The JSONL exchange format of `backtrack export` / `import`: one record per line, as the journal
 * stores it. Parsing checks the whole file before anything is written, so that a malformed file
 * names the line and what is wrong, and imports nothing.
 */
import { z } from "zod";
import { DEFAULT_PAYLOAD_LIMIT_BYTES, encodePayload, MAX_ID_LENGTH, MAX_NAME_LENGTH } from "./base";
import { InvalidRecordError } from "./errors";
import type { JournalRecord, RecordKind } from "./types";

const recordLine = z.object({
  runId: z.string().min(1).max(MAX_ID_LENGTH),
  seq: z.number().int().min(0),
  name: z.string().min(1).max(MAX_NAME_LENGTH),
  // Unknown kinds are kept (shown as unknown), but a kind must look like one.
  kind: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, "a kind is a lower-case identifier"),
  payload: z.unknown(),
  createdAt: z.string().optional(),
});

export function toJsonl(records: readonly JournalRecord[]): string {
  return records.map((record) => JSON.stringify(record)).join("\n") + (records.length > 0 ? "\n" : "");
}

interface ParsedImport {
  /** Records grouped by run, each run's records in seq order. */
  runs: Map<string, Array<{ runId: string; name: string; kind: RecordKind; payload: unknown }>>;
  count: number;
}

export function parseJsonl(text: string, options: { payloadLimitBytes?: number } = {}): ParsedImport {
  const runs: ParsedImport["runs"] = new Map();
  const names = new Map<string, Set<string>>();
  let count = 0;
  const lines = text.split("\n");
  for (const [index, raw] of lines.entries()) {
    const where = `line ${index + 1}`;
    const line = raw.trim();
    if (line === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new InvalidRecordError(`not JSON (${(error as Error).message})`, where, { cause: error });
    }
    const parsed = recordLine.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidRecordError(`${issue?.path.join(".") || "record"}: ${issue?.message ?? "invalid"}`, where);
    }
    const record = parsed.data;
    const list = runs.get(record.runId) ?? [];
    if (record.seq !== list.length) {
      throw new InvalidRecordError(`run "${record.runId}" expects seq ${list.length} here, found ${record.seq} (records of a run must be dense and in order)`, where);
    }
    const seen = names.get(record.runId) ?? new Set<string>();
    if (seen.has(record.name)) throw new InvalidRecordError(`run "${record.runId}" has the name "${record.name}" twice`, where);
    seen.add(record.name);
    names.set(record.runId, seen);
    const next = { runId: record.runId, name: record.name, kind: record.kind as RecordKind, payload: record.payload ?? null };
    try {
      encodePayload(next, options.payloadLimitBytes ?? DEFAULT_PAYLOAD_LIMIT_BYTES);
    } catch (error) {
      throw new InvalidRecordError((error as Error).message, where, { cause: error });
    }
    list.push(next);
    runs.set(record.runId, list);
    count += 1;
  }
  return { runs, count };
}
