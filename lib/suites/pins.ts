/**
 * Pinning a run into a suite, checked: a valid suite name, a run that exists, a bounded note and
 * author. And `suiteStore(journal)`: the SuiteStore of the database a journal is on (SQL for
 * PostgresStore, one in-memory store per MemStore), so callers hold one object, the journal.
 */
import { BadInputError, RunNotFoundError } from "../journal/errors";
import type { Journal } from "../journal/ports";
import type { SqlClient } from "../store/sql-client";
import { checkSuiteName, MAX_NOTE_LENGTH, MAX_PINNED_BY_LENGTH, PinNotFoundError } from "./errors";
import { SqlSuiteStore } from "./sql";
import { MemSuiteStore, type SuiteStore } from "./store";
import type { Pin } from "./types";

export const DEFAULT_SUITE = "default";

const memoryStores = new WeakMap<Journal, MemSuiteStore>();

/** The suites beside a journal: the SQL tables of its database, or an in-memory store kept per journal. */
export function suiteStore(journal: Journal): SuiteStore {
  const client = (journal as { client?: SqlClient }).client;
  if (client && typeof client.query === "function") return new SqlSuiteStore(client);
  let store = memoryStores.get(journal);
  if (!store) memoryStores.set(journal, (store = new MemSuiteStore()));
  return store;
}

export interface PinRequest {
  suite?: string;
  runId: string;
  pinnedBy: string;
  note?: string | null;
}

export async function pinRun(journal: Journal, suites: SuiteStore, request: PinRequest): Promise<{ created: boolean; pin: Pin }> {
  const suite = checkSuiteName(request.suite ?? DEFAULT_SUITE);
  if (request.note && request.note.length > MAX_NOTE_LENGTH) throw new BadInputError(`a note holds at most ${MAX_NOTE_LENGTH} characters`);
  const pinnedBy = request.pinnedBy.trim().slice(0, MAX_PINNED_BY_LENGTH) || "unknown";
  if (!(await journal.run(request.runId))) throw new RunNotFoundError(request.runId);
  return suites.pin({ suite, runId: request.runId, pinnedBy, note: request.note ?? null });
}

/** Removes a pin; PinNotFoundError when the run was not pinned there. */
export async function unpinRun(suites: SuiteStore, suite: string, runId: string): Promise<void> {
  if (!(await suites.unpin(checkSuiteName(suite), runId))) throw new PinNotFoundError(suite, runId);
}
