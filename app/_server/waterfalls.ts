/**
 * The server's waterfalls, costs and aggregated charts. Each is built in the projection pool
 * from the run's outline (outlines.ts) and kept while the outline has not grown (a waterfall of
 * 100,000 records sorts ~67,000 bars; it is held packed and windowed), priced with prices.ts's table.
 */
import "server-only";
import type { PriceTable } from "@/lib/agent/pricing";
import type { RunCost } from "@/lib/agent/pricing";
import type { AggregateGraph } from "@/lib/inspect/aggregate";
import type { ChunkedView } from "@/lib/inspect/outline-chunk";
import { waterfallView, type WaterfallView } from "@/lib/inspect/waterfall";
import type { RunSummary } from "@/lib/journal/types";
import { runOutline } from "./outlines";
import { projectionPool } from "./pool";
import { processWide } from "./process-wide";
import { serverPrices } from "./prices";

const KEPT_WATERFALLS = 8;

/** A kept result of a whole-outline task, valid while the run's outline and the prices stay as they were. */
interface Kept<T> {
  length: number;
  version: string;
  value: Promise<T>;
}

/**
 * `build(lists)` of the run's outline, kept per run (the last KEPT_WATERFALLS runs) while its
 * outline has not grown and the prices are the same; concurrent requests share one build, and a
 * failed build is not kept.
 */
async function kept<T>(name: string, runId: string, run: RunSummary | undefined, build: (view: ChunkedView, table: PriceTable) => Promise<T>): Promise<T | undefined> {
  const [view, table] = await Promise.all([runOutline(runId, run), serverPrices()]);
  if (!view) return undefined;
  const results = processWide(name, () => new Map<string, Kept<T>>());
  let entry = results.get(runId);
  if (!entry || entry.length !== view.entries.length || entry.version !== table.version) {
    const value = build(view, table);
    const made: Kept<T> = { length: view.entries.length, version: table.version, value };
    value.catch(() => results.get(runId) === made && results.delete(runId));
    entry = made;
  }
  results.delete(runId);
  results.set(runId, entry);
  while (results.size > KEPT_WATERFALLS) results.delete(results.keys().next().value as string);
  return entry.value;
}

/** The run's waterfall through at least `run.lastSeq`, or undefined for an unknown run (laid out in the pool from the outline's bar columns; a window's bars are named from the outline). */
export async function runWaterfall(runId: string, run?: RunSummary): Promise<WaterfallView | undefined> {
  return kept("waterfalls", runId, run, async (view, table) => {
    const layout = await projectionPool().run("waterfall", { bars: [...view.barLists], steps: view.entries.length });
    return waterfallView(layout, view.entries, table.prices);
  });
}

/** What the run's model turns cost, and with which table; undefined for an unknown run. */
export async function runCostOf(runId: string, run?: RunSummary): Promise<(RunCost & { table: { version: string; source: string; date: string } }) | undefined> {
  return kept("costs", runId, run, async (view, table) => {
    const cost = await projectionPool().run("cost", { turns: [...view.turnLists], prices: table.prices });
    return { ...cost, table: { version: table.version, source: table.source, date: table.date } };
  });
}

/** The run's shape (lib/inspect/aggregate.ts), folded in the pool from its outline; undefined for an unknown run. */
export function runAggregate(runId: string, run?: RunSummary): Promise<AggregateGraph | undefined> {
  return kept("aggregates", runId, run, (view) => projectionPool().run("aggregate", { lists: [...view.entryLists] }));
}
