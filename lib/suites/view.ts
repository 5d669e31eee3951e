/**
 * What the batch page, `GET /api/suites/{name}/batches/{id}` and the suites list show: one read of
 * a batch with its results (each with its `/diff` link), counts, and the comparison with the batch
 * of the same suite started just before.
 */
import { BatchNotFoundError } from "./errors";
import { compareBatches, diffLink, type BatchComparison } from "./report";
import type { SuiteStore } from "./store";
import { countResults, type Batch, type BatchResult, type StatusCounts } from "./types";

export interface BatchView {
  batch: Batch;
  results: Array<BatchResult & { diffLink: string | null }>;
  counts: StatusCounts;
  previous: { batch: Batch; comparison: BatchComparison } | null;
}

export async function batchView(suites: SuiteStore, suite: string, batchId: string): Promise<BatchView> {
  const batch = await suites.batch(batchId);
  if (!batch || batch.suite !== suite) throw new BatchNotFoundError(batchId);
  const [results, previousBatch] = await Promise.all([suites.results(batchId), suites.previousBatch(batchId)]);
  const previous = previousBatch ? { batch: previousBatch, comparison: compareBatches(await suites.results(previousBatch.batchId), results) } : null;
  return { batch, results: results.map((result) => ({ ...result, diffLink: diffLink(result) })), counts: countResults(results), previous };
}
