/**
 * MemStore's Pricer and cost sort, with PostgresStore's semantics (lib/store/cost-sql.ts): a run
 * is due when a model turn came after its price, it was never priced, or it was priced under
 * another table version; priced runs sort by cost, then the unknown (null) ones, both by run id
 * in the same direction, so unknown costs come last both ways. Memory is cheap, so a due run is
 * priced from all its model records, not only the new ones.
 */
import { decodeCostCursor } from "./cursor";
import type { ModelUsage, PriceRunsOptions, RunPricing } from "./ports";
import { summaryDelta } from "./summary";
import type { JournalRecord, RunSummary, SortOrder } from "./types";

export interface PricedRun {
  summary: RunSummary;
  records: JournalRecord[];
  /** The table version its costUsd was priced under; null before its first price. */
  costTable: string | null;
}

function usageOf(records: readonly JournalRecord[]): ModelUsage[] {
  const byModel = new Map<string | null, ModelUsage>();
  for (const record of records) {
    if (record.kind !== "model") continue;
    const payload = (record.payload ?? {}) as { model?: unknown };
    const model = typeof payload.model === "string" ? payload.model : null;
    const delta = summaryDelta(record);
    const usage = byModel.get(model) ?? { model, turns: 0, inputTokens: 0, outputTokens: 0 };
    usage.turns += 1;
    usage.inputTokens += delta.inputTokens;
    usage.outputTokens += delta.outputTokens;
    byModel.set(model, usage);
  }
  return [...byModel.values()];
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Prices the due runs among `runs` (all of them, or `options.runIds`), in run id order. */
export function priceMemRuns(runs: Iterable<PricedRun>, pricing: RunPricing, options: PriceRunsOptions = {}): { priced: number; more: boolean } {
  const only = options.runIds && new Set(options.runIds);
  const due = [...runs]
    .filter((run) => (run.summary.costPending || run.costTable !== pricing.version) && (!only || only.has(run.summary.runId)))
    .sort((a, b) => cmp(a.summary.runId, b.summary.runId));
  const limit = options.limit ?? 500;
  for (const run of due.slice(0, limit)) {
    run.summary.costUsd = pricing.cost(usageOf(run.records));
    run.summary.costPending = false;
    run.costTable = pricing.version;
  }
  return { priced: Math.min(limit, due.length), more: due.length > limit };
}

/** `summaries` in the cost sort after `cursor`; the caller slices the page. */
export function costOrdered(summaries: RunSummary[], order: SortOrder, cursor: string | undefined): RunSummary[] {
  const sign = order === "asc" ? 1 : -1;
  const position = cursor === undefined ? undefined : decodeCostCursor(cursor, order);
  const compare = (a: Pick<RunSummary, "costUsd" | "runId">, b: Pick<RunSummary, "costUsd" | "runId">): number => {
    if (a.costUsd === null && b.costUsd === null) return sign * cmp(a.runId, b.runId);
    if (a.costUsd === null) return 1;
    if (b.costUsd === null) return -1;
    return a.costUsd === b.costUsd ? sign * cmp(a.runId, b.runId) : sign * (a.costUsd - b.costUsd);
  };
  const sorted = summaries.sort(compare);
  return position ? sorted.filter((run) => compare(run, position) > 0) : sorted;
}
