/**
 * The runs list as the API and the page serve it: lib/journal/pricing.ts pricedRuns with the
 * server's price table (serverPrices: the kept table with the registry's prices on top), so the
 * Cost column agrees with the run headers.
 */
import "server-only";
import { runPricing } from "@/lib/agent/pricing";
import type { Journal } from "@/lib/journal/ports";
import { pricedRuns, type PricedRunPage } from "@/lib/journal/pricing";
import type { RunQuery } from "@/lib/journal/types";
import { serverPrices } from "./prices";

export async function serverRuns(store: Journal, query: RunQuery): Promise<PricedRunPage> {
  return pricedRuns(store, query, runPricing(await serverPrices()));
}
