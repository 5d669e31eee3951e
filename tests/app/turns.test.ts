/**
 * Heavy passes take turns (app/_server/turns.ts): one waiter resumes per macrotask, so light work
 * queued meanwhile runs between two heavy steps; and at most BULK_READS page reads are in flight.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

const { BULK_READS, bulkRead, nextTurn } = await import("@/app/_server/turns");

describe("nextTurn", () => {
  it("lets light work queued after the first step run before the next step", async () => {
    const order: string[] = [];
    const steps = ["a", "b", "c"].map((name) => nextTurn().then(() => order.push(name)));
    setImmediate(() => order.push("light"));
    await Promise.all(steps);
    // A plain setImmediate per step would resume a, b and c in one check phase, light last.
    expect(order).toEqual(["a", "light", "b", "c"]);
  });

  it("resumes waiters first come first served, across separate passes", async () => {
    const order: number[] = [];
    await Promise.all(Array.from({ length: 20 }, (_, index) => nextTurn().then(() => order.push(index))));
    expect(order).toEqual(Array.from({ length: 20 }, (_, index) => index));
  });
});

describe("bulkRead", () => {
  it("keeps at most BULK_READS reads in flight and hands each its own answer", async () => {
    let inFlight = 0;
    let most = 0;
    const read = (value: number) => async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      return value;
    };
    const answers = await Promise.all([1, 2, 3, 4].map((value) => bulkRead(read(value))));
    expect(answers).toEqual([1, 2, 3, 4]);
    expect(most).toBe(BULK_READS);
  });

  it("lets the next read go when one fails", async () => {
    const failing = bulkRead(() => Promise.reject(new Error("connection lost")));
    const next = bulkRead(() => Promise.resolve("read"));
    await expect(failing).rejects.toThrow("connection lost");
    await expect(next).resolves.toBe("read");
  });
});
