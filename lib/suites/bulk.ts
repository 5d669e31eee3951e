/**
 * Bulk actions over "every run matching this filter": the filter's one text form
 * (`status=failed&agent=billing`, the runs list's own query string) parsed into a RunQuery, and
 * the matching runs read page by page. The CLI's `--filter` and the runs list's bulk actions
 * share it, so a filter means the same everywhere. Bounded: a bulk action names at most
 * MAX_BULK_RUNS runs, and refuses more rather than acting on a silent prefix.
 */
import { BadInputError, RunNotFoundError } from "../journal/errors";
import type { Journal } from "../journal/ports";
import { RUN_STATUSES, type RunQuery, type RunStatus } from "../journal/types";

export const MAX_BULK_RUNS = 10_000;
/** The suite a bulk replay's batch is filed under (it has no pins): /suites/bulk/batches/{id} follows it. */
export const BULK_SUITE = "bulk";
const STATUSES: readonly RunStatus[] = RUN_STATUSES;
const KEYS = ["status", "agent", "search"] as const;

/** `status=failed&agent=billing&search=order` → a RunQuery; an unknown key or status is bad input. */
export function parseRunFilter(text: string): Pick<RunQuery, "status" | "agent" | "search"> {
  const params = new URLSearchParams(text.startsWith("?") ? text.slice(1) : text);
  const query: Pick<RunQuery, "status" | "agent" | "search"> = {};
  for (const [key, value] of params) {
    if (!(KEYS as readonly string[]).includes(key)) throw new BadInputError(`filter key "${key}" is not one of ${KEYS.join(", ")}`);
    if (value === "") continue;
    if (key === "status") {
      if (!(STATUSES as readonly string[]).includes(value)) throw new BadInputError(`unknown status "${value}" in the filter; use one of ${STATUSES.join(", ")}`);
      query.status = value as RunStatus;
    } else query[key as "agent" | "search"] = value;
  }
  return query;
}

/** Every root run matching the query (sub-agent runs travel with their root), newest first. */
export async function matchingRuns(journal: Journal, query: Pick<RunQuery, "status" | "agent" | "search">, limit = MAX_BULK_RUNS): Promise<string[]> {
  const runIds: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await journal.runs({ ...query, parentRunId: null, limit: 500, cursor });
    runIds.push(...page.runs.map((run) => run.runId));
    if (runIds.length > limit) throw new BadInputError(`more than ${limit} runs match the filter: narrow it`);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return runIds;
}

/** The runs a bulk action names: the ids given (each must exist), or every root run matching the filter; exactly one of the two. */
export async function bulkRunIds(journal: Journal, target: { runIds?: readonly string[]; filter?: string }): Promise<string[]> {
  if ((target.runIds === undefined) === (target.filter === undefined)) throw new BadInputError("name the runs (runIds) or a filter, one of the two");
  if (target.filter !== undefined) return matchingRuns(journal, parseRunFilter(target.filter));
  const runIds = [...new Set(target.runIds)];
  if (runIds.length === 0) throw new BadInputError("no runs selected");
  if (runIds.length > MAX_BULK_RUNS) throw new BadInputError(`at most ${MAX_BULK_RUNS} runs at once`);
  for (const runId of runIds) if (!(await journal.run(runId))) throw new RunNotFoundError(runId);
  return runIds;
}
