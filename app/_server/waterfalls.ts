/**
 * The server's waterfalls and prices. A run's waterfall is built from its cached outline and kept
 * while the outline has not grown (building one for 100,000 records sorts ~67,000 bars); the
 * prices are the kept table with the registry's (the config's `pricing`, the demo's) on top. A
 * config that fails to load must not hide costs: the table alone is used then.
 */
import "server-only";
import { priceTable } from "@/lib/agent/price-catalog";
import type { PriceTable } from "@/lib/agent/pricing";
import { runCost, type RunCost } from "@/lib/agent/pricing";
import { waterfallOf, type Waterfall } from "@/lib/inspect/waterfall";
import type { RunSummary } from "@/lib/journal/types";
import { runOutline } from "./outlines";
import { processWide } from "./process-wide";
import { serverRegistry } from "./registry";

const KEPT_WATERFALLS = 8;

export async function serverPrices(): Promise<PriceTable> {
  const overrides = await serverRegistry()
    .then((registry) => registry.prices())
    .catch(() => ({}));
  return priceTable(overrides);
}

/** The run's waterfall through at least `run.lastSeq`, or undefined for an unknown run. Shared: callers must not change it. */
export async function runWaterfall(runId: string, run?: RunSummary): Promise<Waterfall | undefined> {
  const [entries, table] = await Promise.all([runOutline(runId, run), serverPrices()]);
  if (!entries) return undefined;
  const kept = processWide("waterfalls", () => new Map<string, { length: number; version: string; waterfall: Waterfall }>());
  const previous = kept.get(runId);
  if (previous && previous.length === entries.length && previous.version === table.version) return previous.waterfall;
  const waterfall = waterfallOf(entries, table.prices);
  kept.delete(runId);
  kept.set(runId, { length: entries.length, version: table.version, waterfall });
  while (kept.size > KEPT_WATERFALLS) kept.delete(kept.keys().next().value as string);
  return waterfall;
}

/** What the run's model turns cost, and with which table; undefined for an unknown run. */
export async function runCostOf(runId: string, run?: RunSummary): Promise<(RunCost & { table: { version: string; source: string; date: string } }) | undefined> {
  const [entries, table] = await Promise.all([runOutline(runId, run), serverPrices()]);
  if (!entries) return undefined;
  const cost = runCost(
    entries.filter((entry) => entry.kind === "model"),
    table.prices,
  );
  return { ...cost, table: { version: table.version, source: table.source, date: table.date } };
}
