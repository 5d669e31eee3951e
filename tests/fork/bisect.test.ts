/**
 * bisectRun on MemStore, PGlite and the server: it finds the decision that flips a run under
 * another model with at most ⌈log2 n⌉ + 1 forks, returns both sides of that decision, and refuses
 * runs it cannot bisect with typed errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bisectRun } from "@/lib/fork";
import { BisectHaltError } from "@/lib/fork/bisect";
import { bisectRegistry } from "@/lib/fork/bisect-fixture";
import { isBacktrackError } from "@/lib/journal/errors";
import type { Journal } from "@/lib/journal/ports";
import { STORE_KINDS } from "../helpers/databases";

describe.each(STORE_KINDS)("bisectRun: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  beforeAll(async () => {
    store = await kind.open();
  });
  afterAll(async () => {
    await store.close();
  });

  it.each([
    [12, 0],
    [12, 5],
    [12, 10],
    [7, 3],
  ])("finds the flip of a %i-decision run at %i within ⌈log2 n⌉ + 1 forks", async (decisions, flip) => {
    const registry = bisectRegistry(decisions, flip);
    const runId = `count-${decisions}-${flip}`;
    await registry.agent("counter", store).run(runId, "count");
    const result = await bisectRun(store, runId, { model: "count/flip", scorer: "same-decisions", registry });
    expect(result.k).toBe(flip);
    expect(result.decisions).toBe(decisions);
    expect(result.forks.length).toBeLessThanOrEqual(Math.ceil(Math.log2(decisions)) + 1);
    expect(result.recorded.toolCallsA?.[0]?.args).toEqual({ i: flip });
    expect(result.live.toolCallsB?.[0]?.args).toEqual({ i: flip, alt: true });
    expect(result.forks.find((fork) => fork.runId === result.failingFork)).toMatchObject({ decision: flip, pass: false });
    for (const fork of result.forks) expect(fork.pass).toBe(fork.decision > flip);
  });

  it("refuses a run that nothing flips, and an unknown scorer", async () => {
    const registry = bisectRegistry(4, 1);
    await registry.agent("counter", store).run("count-same", "count");
    const same = await bisectRun(store, "count-same", { model: "count/base", scorer: "same-decisions", registry }).catch((error: unknown) => error);
    expect(isBacktrackError(same, "bad_fork")).toBe(true);
    const unknown = await bisectRun(store, "count-same", { model: "count/flip", scorer: "nope", registry }).catch((error: unknown) => error);
    expect(isBacktrackError(unknown, "not_found")).toBe(true);
  });

  it("refuses a fork that only halted before an external tool: a halt is not a flip", async () => {
    const registry = bisectRegistry(6, 4, { effects: "external" });
    await registry.agent("counter", store).run("count-external", "count");
    const halted = await bisectRun(store, "count-external", { model: "count/flip", scorer: "same-decisions", registry }).catch((error: unknown) => error);
    expect(halted).toBeInstanceOf(BisectHaltError);
    expect(isBacktrackError(halted, "bad_fork")).toBe(true);
    expect(halted).toMatchObject({ runId: "count-external", decision: 0, toolName: "step", halt: "fork_effect" });
    expect((halted as Error).message).toContain("a halt is not a behaviour flip");
    // With effects allowed the forks run to their end, and the real flip is found.
    const found = await bisectRun(store, "count-external", { model: "count/flip", scorer: "same-decisions", registry, allowEffects: true });
    expect(found.k).toBe(4);
  });
});
