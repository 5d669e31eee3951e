/**
 * Importing runs from JSONL (the `export` format), shared by `backtrack import` and
 * `POST /api/import`. All or nothing: a malformed file, or a run that already exists, imports nothing.
 */
import { BadInputError } from "./errors";
import { parseJsonl } from "./jsonl";
import type { Journal } from "./ports";

export interface ImportResult {
  imported: number;
  runs: string[];
}

export async function importRuns(store: Journal, text: string): Promise<ImportResult> {
  const parsed = parseJsonl(text);
  for (const runId of parsed.runs.keys()) {
    if (await store.run(runId)) throw new BadInputError(`run "${runId}" already exists in this database; nothing was imported`);
  }
  for (const records of parsed.runs.values()) {
    for (const record of records) await store.append(record);
  }
  return { imported: parsed.count, runs: [...parsed.runs.keys()] };
}
