/**
 * Sagas on every store: a failed step rolls back the completed calls in reverse order, each
 * compensation journaled and at most once, across crashes at any point of the rollback.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ResumeHalt } from "@/lib/agent/pauses";
import { SagaAbortedError } from "@/lib/agent/saga";
import { tool } from "@/lib/agent/tool";
import { isBacktrackError } from "@/lib/journal/errors";
import { SimulatedCrashError } from "@/lib/journal/faults";
import type { JournalBase } from "@/lib/journal/base";
import type { Journal } from "@/lib/journal/ports";
import { isComplete, recover } from "@/lib/recovery/recover";
import { STORE_KINDS } from "../helpers/databases";
import { plannedAgent, reusableStore } from "./agents";

type TestStore = Journal & JournalBase & { close(): Promise<void> };

describe.each(STORE_KINDS)("sagas: $name", (kind) => {
  const stores = reusableStore<TestStore>(kind);
  let store: TestStore;
  let log: string[];

  const bookable = (name: string, options: { fails?: boolean; compensable?: boolean } = {}) =>
    tool({
      name,
      description: `Book a ${name}.`,
      input: z.object({ ref: z.string() }),
      execute: ({ ref }, ctx) => {
        if (options.fails) throw new Error(`no ${name} available`);
        log.push(`book ${name} ${ctx.runId}`);
        return { booked: `${name}-${ref}` };
      },
      ...(options.compensable === false
        ? {}
        : {
            compensate: ({ ref }: { ref: string }, result: { booked: string }, ctx: { runId: string }) => {
              log.push(`cancel ${result.booked} ${ref} ${ctx.runId}`);
            },
          }),
    });
  const trip = (carFails: boolean) =>
    plannedAgent(
      store,
      [bookable("flight"), bookable("hotel"), bookable("car", { fails: carFails }), bookable("insurance", { compensable: false })],
      [
        { name: "flight", args: { ref: "f1" } },
        { name: "insurance", args: { ref: "i1" } },
        { name: "hotel", args: { ref: "h1" } },
        { name: "car", args: { ref: "c1" } },
      ],
      { name: "trip" },
    );

  beforeEach(async () => {
    store = await stores.reset();
    log = [];
  });
  afterAll(async () => {
    await stores.close();
  });

  it("a saga whose steps all succeed completes like a run", async () => {
    const result = await trip(false).runSagaResult("ok-trip", "Book my trip.");
    expect(result.text).toContain('car={"booked":"car-c1"}');
    expect(log.filter((line) => line.startsWith("cancel"))).toEqual([]);
    expect((await store.record("ok-trip", "run:start"))?.payload).toMatchObject({ saga: true });
  });

  it("a failed step compensates the completed calls newest first, each journaled, and the run is finished", async () => {
    const error = await trip(true)
      .runSaga("bad-trip", "Book my trip.")
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SagaAbortedError);
    expect(isBacktrackError(error, "saga_aborted")).toBe(true);
    const aborted = error as SagaAbortedError;
    expect(aborted.compensated.map((outcome) => [outcome.call, outcome.toolName, outcome.ok])).toEqual([
      ["turn:2:call:0", "hotel", true],
      ["turn:0:call:0", "flight", true],
    ]);
    expect(aborted.uncompensated).toEqual(["turn:1:call:0"]);
    expect(log).toEqual(["book flight bad-trip", "book insurance bad-trip", "book hotel bad-trip", "cancel hotel-h1 h1 bad-trip", "cancel flight-f1 f1 bad-trip"]);
    const names = (await store.history("bad-trip")).map((record) => record.name);
    expect(names.slice(names.indexOf("turn:3:call:0:result"))).toEqual([
      "turn:3:call:0:result",
      "run:saga:abort",
      "run:saga:turn:2:call:0:attempt",
      "run:saga:turn:2:call:0:compensated",
      "run:saga:turn:0:call:0:attempt",
      "run:saga:turn:0:call:0:compensated",
      "run:complete",
    ]);
    expect(await isComplete(store, "bad-trip")).toBe(true);
    expect(await store.run("bad-trip")).toMatchObject({ status: "complete", error: aborted.message });
    // Resuming (as recovery would) compensates nothing twice.
    await expect(trip(true).run("bad-trip")).rejects.toBeInstanceOf(SagaAbortedError);
    expect(log.filter((line) => line.startsWith("cancel"))).toHaveLength(2);
    expect((await recover(store, async () => "not needed")).runs).toEqual([]);
  });

  it("a crash between the failure and its abort record rolls back on resume", async () => {
    store.faults = {
      beforeWrite: (record) => {
        if (record.name === "run:saga:abort") throw new SimulatedCrashError(0, "before", record.name);
      },
    };
    await expect(trip(true).runSaga("crash-abort", "Book my trip.")).rejects.toBeInstanceOf(SimulatedCrashError);
    store.faults = undefined;
    store.restart();
    // A plain resume: run:start says this run is a saga.
    await expect(trip(true).run("crash-abort")).rejects.toBeInstanceOf(SagaAbortedError);
    expect(log.filter((line) => line.startsWith("cancel"))).toEqual(["cancel hotel-h1 h1 crash-abort", "cancel flight-f1 f1 crash-abort"]);
  });

  it("a compensation cut off after it ran is an unknown outcome: the rollback halts instead of undoing twice", async () => {
    store.faults = {
      beforeWrite: (record) => {
        if (record.name === "run:saga:turn:2:call:0:compensated") throw new SimulatedCrashError(0, "before", record.name);
      },
    };
    await expect(trip(true).runSaga("crash-undo", "Book my trip.")).rejects.toBeInstanceOf(SimulatedCrashError);
    store.faults = undefined;
    store.restart();
    const halted = await trip(true)
      .run("crash-undo")
      .catch((caught: unknown) => caught);
    expect(halted).toBeInstanceOf(ResumeHalt);
    expect((halted as ResumeHalt).recordName).toBe("run:saga:turn:2:call:0:attempt");
    expect(log.filter((line) => line.startsWith("cancel"))).toEqual(["cancel hotel-h1 h1 crash-undo"]);
    expect(await store.run("crash-undo")).toMatchObject({ status: "paused", pause: { reason: "halt" } });
  });

  it("a crash before a compensation's attempt finishes the rollback on resume, each undo once", async () => {
    store.faults = {
      beforeWrite: (record) => {
        if (record.name === "run:saga:turn:0:call:0:attempt") throw new SimulatedCrashError(0, "before", record.name);
      },
    };
    await expect(trip(true).runSaga("crash-between", "Book my trip.")).rejects.toBeInstanceOf(SimulatedCrashError);
    store.faults = undefined;
    store.restart();
    const result = await recover(store, (runId, { signal }) => trip(true).runResult(runId, undefined, { signal }));
    expect(result.runs).toEqual([{ runId: "crash-between", outcome: "failed", error: expect.stringContaining("saga") }]);
    expect(log.filter((line) => line.startsWith("cancel"))).toEqual(["cancel hotel-h1 h1 crash-between", "cancel flight-f1 f1 crash-between"]);
    expect(await isComplete(store, "crash-between")).toBe(true);
  });
});
