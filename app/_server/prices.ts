/**
 * The server's price table: the kept catalog with the registry's prices (the config's `pricing`,
 * the demo's) on top. A config that fails to load must not hide costs: the catalog alone is used
 * then. One table for the run headers, the waterfalls and the runs list's Cost column.
 */
import "server-only";
import { priceTable } from "@/lib/agent/price-catalog";
import type { PriceTable } from "@/lib/agent/pricing";
import { serverRegistry } from "./registry";

export async function serverPrices(): Promise<PriceTable> {
  const overrides = await serverRegistry()
    .then((registry) => registry.prices())
    .catch(() => ({}));
  return priceTable(overrides);
}
