/**
 * "Run suite" from the inspector: the batch is stored when asked for, and the `suite-batch` job
 * drives it on the server's JobRunner, on both real databases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoRegistry } from "@/lib/demo/registry";
import { jobHandlers, SUITE_BATCH_JOB, type SuiteBatchJobInput, type SuiteBatchJobOutput } from "@/lib/jobs/kinds";
import { JobRunner, type Job } from "@/lib/jobs/runner";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { pinRun, suiteStore } from "@/lib/suites/pins";
import { createBatch } from "@/lib/suites/run-suite";
import { batchView } from "@/lib/suites/view";
import { STORE_KINDS } from "../helpers/databases";
import { writeDemoRuns } from "../regression/helpers";

describe.each(STORE_KINDS.filter((kind) => kind.name !== "memory"))("suite batch jobs: $name", (kind) => {
  let store: PostgresStore;
  let runner: JobRunner;
  const registry = demoRegistry();
  beforeAll(async () => {
    store = (await kind.open()) as PostgresStore;
    await writeDemoRuns(store, "order-123", "order-404");
    runner = new JobRunner(store.client, { handlers: jobHandlers(store, registry) });
  }, 120_000);
  afterAll(async () => {
    await runner.stop();
    await store.close();
  });

  it("drives a stored batch as a job; the batch view compares it with the previous one", async () => {
    const suites = suiteStore(store);
    for (const runId of ["order-123", "order-404"]) await pinRun(store, suites, { suite: "smoke", runId, pinnedBy: "inspector" });
    const run = async (model: string) => {
      const batch = await createBatch({ suites, registry }, { suite: "smoke", model });
      expect((await suites.results(batch.batchId)).map((result) => result.status)).toEqual(["pending", "pending"]);
      const input: SuiteBatchJobInput = { batchId: batch.batchId, concurrency: 2 };
      const { jobId } = await runner.submit(SUITE_BATCH_JOB, input);
      await expect.poll(async () => (await runner.get(jobId))?.status, { timeout: 30_000 }).toBe("done");
      return { batch, job: (await runner.get(jobId)) as Job };
    };
    const first = await run("demo/v1");
    expect(first.job.output as SuiteBatchJobOutput).toMatchObject({ batchId: first.batch.batchId, ok: true, counts: { pass: 2 } });
    const second = await run("demo/v2");
    expect(second.job.output as SuiteBatchJobOutput).toMatchObject({ ok: false, counts: { changed: 2 } });
    const view = await batchView(suites, "smoke", second.batch.batchId);
    expect(view.batch).toMatchObject({ status: "done", model: "demo/v2" });
    expect(view.results[0]).toMatchObject({ runId: "order-123", status: "changed", diffLink: `/diff?a=order-123&b=order-123%7E${second.batch.batchId}&at=0` });
    expect(view.previous?.batch.batchId).toBe(first.batch.batchId);
    expect(view.previous?.comparison).toEqual({ newlyChanged: ["order-123", "order-404"], fixed: [], stillChanged: [] });
    await expect(batchView(suites, "other", second.batch.batchId)).rejects.toMatchObject({ code: "not_found" });
  }, 90_000);
});
