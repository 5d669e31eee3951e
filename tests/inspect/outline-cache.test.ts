/** The server's outline cache on every store: it reads each record once and follows a growing run. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingAgent } from "@/lib/demo/agents";
import type { Journal } from "@/lib/journal/ports";
import type { HistoryOptions } from "@/lib/journal/types";
import { outline } from "@/lib/inspect/outline";
import { OutlineCache } from "@/lib/inspect/outline-cache";
import { STORE_KINDS } from "../helpers/databases";

describe.each(STORE_KINDS)("outline cache: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };

  beforeAll(async () => {
    store = await kind.open();
    await billingAgent(store).run("order-123", "Please charge order 123.");
  });
  afterAll(async () => {
    await store.close();
  });

  it("outlines a run as the pure projection does, then reads only what was appended since", async () => {
    const reads: HistoryOptions[] = [];
    const counting = {
      run: (runId: string) => store.run(runId),
      history: (runId: string, options?: HistoryOptions) => {
        reads.push(options ?? {});
        return store.history(runId, options);
      },
    };
    const cache = new OutlineCache(counting, { pageSize: 4 });
    expect(await cache.outline("order-123")).toEqual(outline(await store.history("order-123")));
    expect(reads).toEqual([
      { from: 0, limit: 4 },
      { from: 4, limit: 4 },
    ]);
    reads.length = 0;
    expect(await cache.outline("order-123")).toHaveLength(6);
    expect(reads).toEqual([]);
    for (const step of ["a", "b", "c"]) await store.append({ runId: "order-123", name: `after-${step}`, kind: "value", payload: { step } });
    const grown = await cache.outline("order-123");
    expect(grown?.map((entry) => entry.name).slice(-3)).toEqual(["after-a", "after-b", "after-c"]);
    expect(reads).toEqual([{ from: 6, limit: 4 }]);
    expect(await cache.outline("no-such-run")).toBeUndefined();
  });

  it("shares one catch-up between concurrent requests and drops the least recently used runs", async () => {
    await billingAgent(store).run("order-77", "Please charge order 77.");
    let reads = 0;
    const counting = {
      run: (runId: string) => store.run(runId),
      history: (runId: string, options?: HistoryOptions) => {
        reads += 1;
        return store.history(runId, options);
      },
    };
    const cache = new OutlineCache(counting, { maxEntries: 10 });
    const [first, second] = await Promise.all([cache.outline("order-77"), cache.outline("order-77")]);
    expect(first).toBe(second);
    expect(reads).toBe(1);
    await cache.outline("order-123");
    reads = 0;
    await cache.outline("order-77");
    expect(reads).toBe(1);
  });
});
