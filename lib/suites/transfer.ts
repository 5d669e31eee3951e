/**
 * Moving a suite between databases (production to CI): `exportSuite` writes a header line (the
 * suite and its pins), then every pinned run's records with its sub-agent runs (the `export`
 * JSONL). `importSuite` reads it back all or nothing, like run import: the runs and the pins are
 * committed by one statement on a SQL store (the pins ride in the import's commit), so a malformed
 * line, a run that already exists, or a kill midway leaves neither runs nor pins.
 */
import { z } from "zod";
import type { SignalPayload } from "../agent/payloads";
import { parseFiniteJson, toJsonl } from "../journal/jsonl";
import { importLines, type ImportOptions, type ImportResult } from "../journal/import";
import type { ImportBatch, Journal } from "../journal/ports";
import type { JournalRecord } from "../journal/types";
import type { PostgresStore } from "../store/postgres-store";
import { BadSuiteFileError, checkSuiteName, EmptySuiteError, MAX_NOTE_LENGTH, MAX_PINNED_BY_LENGTH } from "./errors";
import { INSERT_PINS_SQL } from "./sql";
import type { SuiteStore } from "./store";

export const SUITE_FORMAT = "backtrack-suite/1";

const header = z
  .object({
    format: z.literal(SUITE_FORMAT),
    suite: z.string(),
    pins: z
      .array(
        z.object({
          runId: z.string().min(1).max(256),
          pinnedBy: z.string().max(MAX_PINNED_BY_LENGTH),
          pinnedAt: z.iso.datetime({ offset: true }),
          note: z.string().max(MAX_NOTE_LENGTH).nullable(),
        }),
      )
      .min(1),
  })
  .strict();

export type SuiteHeader = z.infer<typeof header>;

/** A run's records and its sub-agent runs' records (a replay of the run needs the whole tree). */
export async function treeRecords(store: Journal, runId: string, seen = new Set<string>()): Promise<JournalRecord[]> {
  if (seen.has(runId)) return [];
  seen.add(runId);
  const records = await store.history(runId);
  const children: string[] = [];
  for (const record of records) {
    const payload = record.payload as Partial<SignalPayload> | null;
    if (record.kind === "signal" && payload?.type === "subagent" && typeof payload.childRunId === "string") children.push(payload.childRunId);
  }
  for (const child of children) records.push(...(await treeRecords(store, child, seen)));
  return records;
}

/** The suite as JSONL chunks: the header line, then each pinned run's tree (a run shared by two trees once). */
export async function* exportSuite(journal: Journal, suites: SuiteStore, suite: string): AsyncGenerator<string> {
  const pins = await suites.pins(checkSuiteName(suite));
  if (pins.length === 0) throw new EmptySuiteError(suite);
  const line: SuiteHeader = { format: SUITE_FORMAT, suite, pins: pins.map(({ runId, pinnedBy, pinnedAt, note }) => ({ runId, pinnedBy, pinnedAt, note })) };
  yield `${JSON.stringify(line)}\n`;
  const seen = new Set<string>();
  for (const pin of pins) yield toJsonl(await treeRecords(journal, pin.runId, seen));
}

export interface SuiteImportResult extends ImportResult {
  suite: string;
  pins: number;
}

function parseHeader(line: string | undefined, rename?: string): SuiteHeader {
  if (line === undefined) throw new BadSuiteFileError("the suite file is empty");
  let value: unknown;
  try {
    value = parseFiniteJson(line);
  } catch (error) {
    throw new BadSuiteFileError(`line 1: not JSON (a suite file starts with its header line)`, { cause: error });
  }
  const parsed = header.safeParse(value);
  if (!parsed.success) {
    throw new BadSuiteFileError(`line 1: not a ${SUITE_FORMAT} header: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "header"}: ${issue.message}`).join("; ")}`);
  }
  return { ...parsed.data, suite: checkSuiteName(rename ?? parsed.data.suite) };
}

/** The import's batch, with the pins committed alongside the runs (in its statement on a SQL store). */
async function pinningBatch(journal: Journal, suites: SuiteStore, suiteHeader: SuiteHeader): Promise<ImportBatch> {
  const sql = (journal as Partial<PostgresStore>).client ? (journal as PostgresStore) : undefined;
  const rows = suiteHeader.pins.map((pin) => ({ suite: suiteHeader.suite, run_id: pin.runId, pinned_by: pin.pinnedBy, pinned_at: pin.pinnedAt, note: pin.note }));
  const inner = sql ? await sql.beginImport({ statement: INSERT_PINS_SQL, value: JSON.stringify(rows) }) : await journal.beginImport();
  return {
    stage: (records) => inner.stage(records),
    discard: () => inner.discard(),
    async commit(runs) {
      const imported = new Set(runs.map((run) => run.runId));
      const missing = suiteHeader.pins.find((pin) => !imported.has(pin.runId));
      if (missing) throw new BadSuiteFileError(`the suite file pins run "${missing.runId}" but holds none of its records`);
      await inner.commit(runs);
      // MemStore: its commit is synchronous and cannot be interrupted; the pins follow at once.
      if (!sql)
        for (const pin of suiteHeader.pins) await suites.pin({ suite: suiteHeader.suite, runId: pin.runId, pinnedBy: pin.pinnedBy, note: pin.note, pinnedAt: pin.pinnedAt });
    },
  };
}

/** Imports a suite file's lines, all or nothing; `rename` imports it under another suite name. */
export async function importSuite(
  journal: Journal,
  suites: SuiteStore,
  lines: AsyncIterable<string> | Iterable<string>,
  options: Omit<ImportOptions, "batch"> & { rename?: string } = {},
): Promise<SuiteImportResult> {
  const iterator = Symbol.asyncIterator in lines ? lines[Symbol.asyncIterator]() : lines[Symbol.iterator]();
  const first = await iterator.next();
  const suiteHeader = parseHeader(first.done ? undefined : first.value, options.rename);
  // The header's place is taken by a blank line, which the record checker skips: its errors then
  // name the file's own line numbers.
  let headerSlot = true;
  const next = async (): Promise<IteratorResult<string>> => {
    if (!headerSlot) return iterator.next();
    headerSlot = false;
    return { done: false, value: "" };
  };
  const rest: AsyncIterable<string> = { [Symbol.asyncIterator]: () => ({ next }) };
  const batch = await pinningBatch(journal, suites, suiteHeader);
  const result = await importLines(journal, rest, { ...options, batch });
  return { ...result, suite: suiteHeader.suite, pins: suiteHeader.pins.length };
}
