/**
 * What tokens cost: a model's price looked up in a price table, a turn's cost, a run's cost.
 * Pure, and free of the catalog (price-catalog.ts builds the default table), so the browser can
 * import it. Invariants: a model with no price has no cost — `null`, shown "—", never $0; a run's
 * cost is known only when every model turn in it is priced.
 */
import type { ModelUsage, RunPricing } from "../journal/ports";
/** What a model's tokens cost, in US dollars per million tokens (the unit price lists use). */
export interface ModelPrice {
  input: number;
  output: number;
}

export interface PriceTable {
  /** Which table this is: the catalog's package and version, with "+config" when overridden. */
  version: string;
  /** Where the prices come from, and the date the catalog was published. */
  source: string;
  date: string;
  prices: Record<string, ModelPrice>;
}

/** A table's own entries, then the user's overrides on top; the version says it was overridden. */
export function withOverrides(table: PriceTable, overrides: Record<string, ModelPrice>): PriceTable {
  const keys = Object.keys(overrides);
  if (keys.length === 0) return table;
  return { ...table, version: `${table.version}+config`, prices: { ...table.prices, ...overrides } };
}

/**
 * The ids a run may record for one model, most specific first: the id itself, an AI SDK id
 * (`openai.chat:gpt-4o` → `openai/gpt-4o`), then the bare model name (`gpt-4o`).
 */
export function priceKeys(modelId: string): string[] {
  const id = modelId.trim();
  const keys = [id];
  const split = /^([^:/]+)[:/](.+)$/.exec(id);
  if (split) {
    const provider = split[1]!.split(".")[0]!;
    keys.push(`${provider}/${split[2]!}`, split[2]!);
  }
  return [...new Set([...keys, ...keys.map((key) => key.toLowerCase())])];
}

/** The price of `modelId` in `prices`, or undefined when it has none. */
export function priceOf(prices: Record<string, ModelPrice>, modelId: string | undefined): ModelPrice | undefined {
  if (!modelId) return undefined;
  for (const key of priceKeys(modelId)) {
    if (Object.hasOwn(prices, key)) return prices[key];
  }
  return undefined;
}

/** US dollars for `usage` at `price`, or null without a price. */
export function costOf(price: ModelPrice | undefined | null, usage: { inputTokens?: number; outputTokens?: number }): number | null {
  if (!price) return null;
  return ((usage.inputTokens ?? 0) * price.input + (usage.outputTokens ?? 0) * price.output) / 1_000_000;
}

/** "$12.34", "$0.0123", "$0.0000042" (two significant digits below a cent), or "—" for an unknown cost. */
export function formatUsd(cost: number | null | undefined): string {
  if (cost === null || cost === undefined || !Number.isFinite(cost)) return "—";
  if (cost === 0) return "$0.00";
  if (cost < 0.01) return `$${cost.toFixed(Math.min(12, 1 - Math.floor(Math.log10(cost))))}`;
  if (cost < 1) return `$${cost.toFixed(4)}`;
  return `$${cost.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** One model turn, as a run's outline or records give it. */
export interface PricedTurn {
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
}

export interface ModelCost {
  model: string;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  price: ModelPrice | null;
  costUsd: number | null;
}

export interface RunCost {
  /** The whole run's cost, or null when any model turn is unpriced. */
  costUsd: number | null;
  /** What the priced turns cost (a lower bound when some are unpriced). */
  pricedUsd: number;
  unpricedTurns: number;
  byModel: ModelCost[];
}

/** The cost of a run's model turns, by model. A turn that names no model is "unknown" and unpriced. */
export function runCost(turns: Iterable<PricedTurn>, prices: Record<string, ModelPrice>): RunCost {
  const byModel = new Map<string, ModelCost>();
  for (const turn of turns) {
    const model = turn.model || "unknown";
    let row = byModel.get(model);
    if (!row) {
      const price = turn.model ? (priceOf(prices, turn.model) ?? null) : null;
      row = { model, turns: 0, inputTokens: 0, outputTokens: 0, price, costUsd: price ? 0 : null };
      byModel.set(model, row);
    }
    row.turns += 1;
    row.inputTokens += turn.inputTokens ?? 0;
    row.outputTokens += turn.outputTokens ?? 0;
  }
  let pricedUsd = 0;
  let unpricedTurns = 0;
  for (const row of byModel.values()) {
    row.costUsd = costOf(row.price, row);
    if (row.costUsd === null) unpricedTurns += row.turns;
    else pricedUsd += row.costUsd;
  }
  return { costUsd: unpricedTurns > 0 ? null : pricedUsd, pricedUsd, unpricedTurns, byModel: [...byModel.values()] };
}

/** What `usage` costs at `prices` (as runCost would price the same turns): null when a model has no price. */
export function usageCost(usage: readonly ModelUsage[], prices: Record<string, ModelPrice>): number | null {
  let total = 0;
  for (const part of usage) {
    if (part.turns === 0) continue;
    const cost = costOf(part.model ? priceOf(prices, part.model) : undefined, part);
    if (cost === null) return null;
    total += cost;
  }
  return total;
}

/** FNV-1a of `text`, in hex: a table's fingerprint, the same in the browser and in Node. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

const pricings = new WeakMap<PriceTable, RunPricing>();

/**
 * The pricing a store keeps runs' costs with (Pricer), from a price table. Its version names the
 * prices themselves, not only the table's name ("+config" whatever the overrides), so that a
 * changed price reprices the runs. Built once per table.
 */
export function runPricing(table: PriceTable): RunPricing {
  let pricing = pricings.get(table);
  if (!pricing) {
    const entries = Object.keys(table.prices)
      .sort()
      .map((key) => [key, table.prices[key]!.input, table.prices[key]!.output]);
    pricing = { version: `${table.version}#${fingerprint(JSON.stringify(entries))}`, cost: (usage) => usageCost(usage, table.prices) };
    pricings.set(table, pricing);
  }
  return pricing;
}
