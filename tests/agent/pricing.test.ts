/** Prices: the kept table, lookups by the ids runs record, config overrides, and "—" never $0. */
import { describe, expect, it } from "vitest";
import { Registry } from "@/lib/agent/registry";
import { applyConfig } from "@/lib/config/config";
import { ConfigError } from "@/lib/journal/errors";
import { PRICE_CATALOG, priceTable } from "@/lib/agent/price-catalog";
import { costOf, formatUsd, priceKeys, priceOf, runCost } from "@/lib/agent/pricing";

describe("the kept price table", () => {
  it("prices well-known models from the pinned catalog, by bare name, provider/name and AI SDK id", () => {
    const table = priceTable();
    expect(table.version).toBe(PRICE_CATALOG.version);
    const bare = priceOf(table.prices, "gpt-4o-mini");
    expect(bare).toEqual({ input: 0.15, output: 0.6 });
    expect(priceOf(table.prices, "openai/gpt-4o-mini")).toEqual(bare);
    expect(priceOf(table.prices, "openai.chat:gpt-4o-mini")).toEqual(bare);
    expect(priceOf(table.prices, "anthropic.messages:claude-3-7-sonnet-20250219")).toEqual({ input: 3, output: 15 });
  });

  it("has no price for a model it does not list: unknown, never free", () => {
    const { prices } = priceTable();
    expect(priceOf(prices, "acme/in-house-7b")).toBeUndefined();
    expect(costOf(priceOf(prices, "acme/in-house-7b"), { inputTokens: 1000, outputTokens: 10 })).toBeNull();
    expect(formatUsd(null)).toBe("—");
    expect(formatUsd(undefined)).toBe("—");
  });

  it("lets overrides win over the catalog and says the table was overridden", () => {
    const table = priceTable({ "gpt-4o-mini": { input: 1, output: 2 }, "acme/in-house-7b": { input: 0.5, output: 0.5 } });
    expect(table.version).toBe(`${PRICE_CATALOG.version}+config`);
    expect(priceOf(table.prices, "gpt-4o-mini")).toEqual({ input: 1, output: 2 });
    expect(priceOf(table.prices, "acme/in-house-7b")).toEqual({ input: 0.5, output: 0.5 });
    // The kept table itself is unchanged.
    expect(priceOf(priceTable().prices, "gpt-4o-mini")).toEqual({ input: 0.15, output: 0.6 });
  });

  it("reads ids most specific first", () => {
    expect(priceKeys("openai.chat:GPT-4o")).toEqual(["openai.chat:GPT-4o", "openai/GPT-4o", "GPT-4o", "openai.chat:gpt-4o", "openai/gpt-4o", "gpt-4o"]);
  });
});

describe("costs", () => {
  it("prices tokens per million", () => {
    expect(costOf({ input: 3, output: 15 }, { inputTokens: 1_000_000, outputTokens: 100_000 })).toBeCloseTo(4.5, 10);
    expect(formatUsd(4.5)).toBe("$4.50");
    expect(formatUsd(0.0123)).toBe("$0.0123");
    expect(formatUsd(0.00123)).toBe("$0.0012");
    expect(formatUsd(0.0000042)).toBe("$0.0000042");
    expect(formatUsd(0)).toBe("$0.00");
  });

  it("knows a run's cost only when every model turn is priced", () => {
    const prices = { a: { input: 1, output: 2 } };
    const priced = runCost(
      [
        { model: "a", inputTokens: 1_000_000, outputTokens: 0 },
        { model: "a", inputTokens: 0, outputTokens: 500_000 },
      ],
      prices,
    );
    expect(priced.costUsd).toBeCloseTo(2, 10);
    expect(priced.byModel).toEqual([{ model: "a", turns: 2, inputTokens: 1_000_000, outputTokens: 500_000, price: prices.a, costUsd: 2 }]);

    const mixed = runCost([{ model: "a", inputTokens: 1_000_000 }, { model: "b", inputTokens: 5 }, { inputTokens: 5 }], prices);
    expect(mixed.costUsd).toBeNull();
    expect(mixed.pricedUsd).toBeCloseTo(1, 10);
    expect(mixed.unpricedTurns).toBe(2);
    expect(mixed.byModel.map((row) => [row.model, row.costUsd])).toEqual([
      ["a", 1],
      ["b", null],
      ["unknown", null],
    ]);
    // No model turns: nothing was spent on models.
    expect(runCost([], prices).costUsd).toBe(0);
  });
});

describe("pricing in backtrack.config.ts", () => {
  it("registers prices that override the table", () => {
    const registry = applyConfig(new Registry(), { pricing: { "acme/in-house-7b": { input: 0.2, output: 0.4 } } });
    expect(registry.prices()).toEqual({ "acme/in-house-7b": { input: 0.2, output: 0.4 } });
    expect(priceOf(priceTable(registry.prices()).prices, "acme/in-house-7b")).toEqual({ input: 0.2, output: 0.4 });
  });

  it("refuses a price that is not two non-negative numbers, naming the entry", () => {
    for (const pricing of [
      { m: { input: -1, output: 1 } },
      { m: { input: 1 } },
      { m: { input: "1", output: 1 } },
      { m: { input: 1, output: 1, cached: 1 } },
      { "": { input: 1, output: 1 } },
    ]) {
      const attempt = () => applyConfig(new Registry(), { pricing }, "backtrack.config.ts");
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(/backtrack\.config\.ts: pricing/);
    }
  });
});
