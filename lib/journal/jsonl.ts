/**
 * The JSONL exchange format of `backtrack export` / `import`: one record per line, as the journal
 * stores it. LineChecker checks one line at a time (so that a file of any size streams through
 * it), naming the line and what is wrong; an import writes nothing unless every line passes.
 */
import { z } from "zod";
import { DEFAULT_PAYLOAD_LIMIT_BYTES, encodePayload, MAX_ID_LENGTH, MAX_NAME_LENGTH } from "./base";
import { InvalidRecordError, NonFiniteNumberError } from "./errors";
import type { StagedRecord } from "./ports";
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

/** Only a number written with 309+ digits or a 3-digit exponent can overflow a double: a cheap
 * test of the line's text spares walking every payload. */
const MAY_OVERFLOW = /\d{309}|[eE][+-]?\d{3}/;

/** The path of the first non-finite number in a parsed JSON value (JSON.parse("1e400") is Infinity), or undefined. */
export function nonFinitePath(value: unknown, path = "$"): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : path;
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nonFinitePath(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const found = nonFinitePath(item, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

/** Parses JSON text, refusing a number that overflows to Infinity (JSON.stringify would store it as null). */
export function parseFiniteJson(text: string, where?: string): unknown {
  const value: unknown = JSON.parse(text);
  if (MAY_OVERFLOW.test(text)) {
    const path = nonFinitePath(value);
    if (path) throw new NonFiniteNumberError(path, where);
  }
  return value;
}

/** Checks JSONL lines in order: each a record, each run's seq dense from 0, each name once per run. */
export class LineChecker {
  private readonly nextSeq = new Map<string, number>();
  private readonly names = new Map<string, Set<string>>();
  private lineNumber = 0;

  constructor(private readonly payloadLimitBytes = DEFAULT_PAYLOAD_LIMIT_BYTES) {}

  /** The record on the next line, or undefined for a blank line; InvalidRecordError names the line. */
  check(raw: string): StagedRecord | undefined {
    this.lineNumber += 1;
    const where = `line ${this.lineNumber}`;
    const line = raw.trim();
    if (line === "") return undefined;
    let value: unknown;
    try {
      value = parseFiniteJson(line, where);
    } catch (error) {
      if (error instanceof NonFiniteNumberError) throw error;
      throw new InvalidRecordError(`not JSON (${(error as Error).message})`, where, { cause: error });
    }
    const parsed = recordLine.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidRecordError(`${issue?.path.join(".") || "record"}: ${issue?.message ?? "invalid"}`, where);
    }
    const record = parsed.data;
    const expected = this.nextSeq.get(record.runId) ?? 0;
    if (record.seq !== expected) {
      throw new InvalidRecordError(`run "${record.runId}" expects seq ${expected} here, found ${record.seq} (records of a run must be dense and in order)`, where);
    }
    const seen = this.names.get(record.runId) ?? new Set<string>();
    if (seen.has(record.name)) throw new InvalidRecordError(`run "${record.runId}" has the name "${record.name}" twice`, where);
    const next = { runId: record.runId, seq: record.seq, name: record.name, kind: record.kind as RecordKind, payload: record.payload ?? null };
    try {
      encodePayload(next, this.payloadLimitBytes);
    } catch (error) {
      throw new InvalidRecordError((error as Error).message, where, { cause: error });
    }
    seen.add(record.name);
    this.names.set(record.runId, seen);
    this.nextSeq.set(record.runId, expected + 1);
    return next;
  }
}

export interface ParsedImport {
  /** Records grouped by run, each run's records in seq order. */
  runs: Map<string, StagedRecord[]>;
  count: number;
}

/** A whole JSONL text checked and grouped by run (small files; imports stream through LineChecker). */
export function parseJsonl(text: string, options: { payloadLimitBytes?: number } = {}): ParsedImport {
  const checker = new LineChecker(options.payloadLimitBytes);
  const runs: ParsedImport["runs"] = new Map();
  let count = 0;
  for (const line of text.split("\n")) {
    const record = checker.check(line);
    if (!record) continue;
    const list = runs.get(record.runId) ?? [];
    list.push(record);
    runs.set(record.runId, list);
    count += 1;
  }
  return { runs, count };
}
