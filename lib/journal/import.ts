/**
 * Importing runs from JSONL (the `export` format), shared by `backtrack import` and
 * `POST /api/import`. Lines stream through LineChecker into the store's ImportBatch a chunk at a
 * time, so a file of any size imports in bounded memory (beyond each run's names, for the
 * once-per-run check). All or nothing: a malformed line, a run that already exists, or a process
 * killed midway imports nothing (see ImportBatch).
 */
import { LineChecker } from "./jsonl";
import type { ImportBatch, ImportedRun, Journal, StagedRecord } from "./ports";
import { summaryDelta } from "./summary";
import type { RecordKind } from "./types";

export interface ImportResult {
  imported: number;
  runs: string[];
}

export interface ImportProgress {
  records: number;
  /** Bytes of the lines read so far (UTF-8, newlines included). */
  bytes: number;
}

export interface ImportOptions {
  /** Called after each chunk is staged. */
  onProgress?: (progress: ImportProgress) => void;
  /** Stage a chunk when it reaches this many bytes of payload text. Default 4 MiB. */
  chunkBytes?: number;
  payloadLimitBytes?: number;
  /** An import already begun (a suite import's commit also writes its pins); store.beginImport() by default. */
  batch?: ImportBatch;
}

/**
 * The largest body `POST /api/import` accepts (64 MiB); larger ones get 413 import_too_large.
 * next.config.ts lets bodies just over it through its proxy (which would otherwise cut them at
 * 10 MB); `backtrack import` streams files of any size.
 */
export const HTTP_IMPORT_LIMIT_BYTES = 64 * 1024 * 1024;

const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;
const CHUNK_RECORDS = 5_000;

/** Folds a record into its run's summary, as the stores' appends would have. */
function fold(runs: Map<string, ImportedRun>, record: StagedRecord): void {
  const delta = summaryDelta({ ...record, kind: record.kind as RecordKind });
  const run = runs.get(record.runId) ?? {
    runId: record.runId,
    ...{ agent: null, parentRunId: null, inputText: null, modelTurns: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0 },
    ...{ status: "running" as const, completed: false, records: 0 },
  };
  run.agent ??= delta.agent;
  run.parentRunId ??= delta.parentRunId;
  run.inputText ??= delta.inputText;
  run.modelTurns += delta.modelTurns;
  run.toolCalls += delta.toolCalls;
  run.inputTokens += delta.inputTokens;
  run.outputTokens += delta.outputTokens;
  run.status = delta.status;
  run.completed ||= delta.completed;
  run.records += 1;
  runs.set(record.runId, run);
}

/** Imports JSONL lines (a file read line by line, or a text split at newlines): all or nothing. */
export async function importLines(store: Journal, lines: AsyncIterable<string> | Iterable<string>, options: ImportOptions = {}): Promise<ImportResult> {
  const checker = new LineChecker(options.payloadLimitBytes);
  const limit = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const runs = new Map<string, ImportedRun>();
  // Taken before the first await: readline emits lines from its creation on, and drops those
  // emitted before its iterator exists.
  const iterator = Symbol.asyncIterator in lines ? lines[Symbol.asyncIterator]() : lines[Symbol.iterator]();
  const batch = options.batch ?? (await store.beginImport());
  let chunk: StagedRecord[] = [];
  let chunkBytes = 0;
  const progress: ImportProgress = { records: 0, bytes: 0 };
  const flush = async () => {
    await batch.stage(chunk);
    chunk = [];
    chunkBytes = 0;
    options.onProgress?.({ ...progress });
  };
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const line = next.value;
      progress.bytes += Buffer.byteLength(line, "utf8") + 1;
      const record = checker.check(line);
      if (!record) continue;
      fold(runs, record);
      chunk.push(record);
      progress.records += 1;
      chunkBytes += line.length;
      if (chunkBytes >= limit || chunk.length >= CHUNK_RECORDS) await flush();
    }
    await flush();
    await batch.commit([...runs.values()]);
  } catch (error) {
    await batch.discard().catch(() => undefined);
    throw error;
  }
  return { imported: progress.records, runs: [...runs.keys()] };
}

/** Imports a whole JSONL text: all or nothing. */
export function importRuns(store: Journal, text: string, options: ImportOptions = {}): Promise<ImportResult> {
  return importLines(store, text.split("\n"), options);
}
