import { z } from "zod";
import { json, parseBody, route } from "@/app/_server/http";
import { jobRunner } from "@/app/_server/jobs";
import { serverRegistry } from "@/app/_server/registry";
import { serverSuites } from "@/app/_server/suites";
import { SUITE_BATCH_JOB, type SuiteBatchJobInput } from "@/lib/jobs/kinds";
import { BULK_SUITE, bulkRunIds, MAX_BULK_RUNS } from "@/lib/suites/bulk";
import { checkSuiteName } from "@/lib/suites/errors";
import { createBatch } from "@/lib/suites/run-suite";
import { batchPath } from "@/lib/suites/report";

export const dynamic = "force-dynamic";

const body = z
  .object({
    action: z.enum(["pin", "replay"]),
    runIds: z.array(z.string().min(1).max(256)).max(MAX_BULK_RUNS).optional(),
    filter: z.string().max(2_000).optional(),
    suite: z.string().min(1).max(100).optional(),
    model: z.string().min(1).max(200).optional(),
    stripMemory: z.boolean().optional(),
  })
  .strict();

/**
 * POST /api/bulk: one action on the selected runs (`runIds`) or on every root run matching
 * `filter` (the runs list's query: `status=failed&agent=billing&search=…`).
 * - `pin` { suite } → 200 { pinned, already, suite }: one statement;
 * - `replay` { model?, stripMemory? } → 202 { jobId, batchId, href }: a batch of the `bulk` suite
 *   driven by a job; its page shows the progress and each replay's diff.
 */
export const POST = route(async (request) => {
  const asked = await parseBody(request, body);
  const { store, suites } = await serverSuites();
  const runIds = await bulkRunIds(store, asked);
  if (asked.action === "pin") {
    const suite = checkSuiteName(asked.suite ?? "default");
    const pinned = await suites.pinMany(suite, runIds, "inspector");
    return json({ suite, pinned, already: runIds.length - pinned });
  }
  const batch = await createBatch({ suites, registry: await serverRegistry() }, { suite: BULK_SUITE, model: asked.model, stripMemory: asked.stripMemory, runIds });
  const input: SuiteBatchJobInput = { batchId: batch.batchId };
  const job = await (await jobRunner()).submit(SUITE_BATCH_JOB, input);
  return json({ jobId: job.jobId, batchId: batch.batchId, href: batchPath(batch) }, 202);
});
