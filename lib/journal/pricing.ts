/**
 * The runs list with costs: one projection for the CLI's `runs`, `GET /api/runs` and the runs
 * page. Before a page is read, due runs are priced (Pricer): a bounded sweep, then the page's
 * own pending rows, so that the Cost column follows the price table the run headers use.
 * Invariants: a cost-sorted page is read after pricing every due run, or after PRICING_BUDGET_MS
 * of pricing (then `costsPending` says some runs still sort as unknown); without a Pricer the
 * cost sort is refused with BadInputError, never answered in another order.
 */
import { BadInputError } from "./errors";
import { isPricer, type RunPricing } from "./ports";
import type { Journal } from "./ports";
import type { RunPage, RunQuery } from "./types";

const PRICING_BUDGET_MS = 3_000;
const SWEEP = 500;
/** Due runs priced before an unsorted page: live runs, usually a handful. */
const UNSORTED_SWEEP = 100;

export interface PricedRunPage extends RunPage {
  /** Due runs were left unpriced (the budget ran out): they sort as unknown until priced. */
  costsPending: boolean;
}

export async function pricedRuns(store: Journal, query: RunQuery, pricing: RunPricing | undefined): Promise<PricedRunPage> {
  const byCost = query.sort === "cost";
  if (!pricing || !isPricer(store)) {
    if (byCost) throw new BadInputError("this store cannot sort runs by cost");
    return { ...(await store.runs(query)), costsPending: false };
  }
  const started = performance.now();
  let swept = await store.priceRuns(pricing, { limit: byCost ? SWEEP : UNSORTED_SWEEP });
  while (byCost && swept.more && performance.now() - started < PRICING_BUDGET_MS) swept = await store.priceRuns(pricing, { limit: SWEEP });
  let page = await store.runs(query);
  const pending = page.runs.filter((run) => run.costPending).map((run) => run.runId);
  if (pending.length > 0 && !byCost) {
    await store.priceRuns(pricing, { runIds: pending, limit: pending.length });
    page = await store.runs(query);
  }
  return { ...page, costsPending: byCost && swept.more };
}
