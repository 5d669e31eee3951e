import { z } from "zod";
import { json, parseBody, route } from "@/app/_server/http";
import { jobRunner } from "@/app/_server/jobs";
import { serverRegistry } from "@/app/_server/registry";
import { checkSuiteName, serverSuites } from "@/app/_server/suites";
import { SUITE_BATCH_JOB, type SuiteBatchJobInput } from "@/lib/jobs/kinds";
import { createBatch } from "@/lib/suites/run-suite";

export const dynamic = "force-dynamic";

const runBody = z
  .object({
    model: z.string().min(1).max(200).optional(),
    stripMemory: z.boolean().optional(),
    scorer: z.string().min(1).max(200).optional(),
  })
  .strict();

/** GET /api/suites/{name}/batches → { suite, batches } (newest first, at most 50) */
export const GET = route<{ name: string }>(async (_request, { name }) => {
  const { suites } = await serverSuites();
  return json({ suite: name, batches: await suites.batches(checkSuiteName(name)) });
});

/**
 * POST /api/suites/{name}/batches { model?, stripMemory?, scorer? } → 202 { jobId, batchId }.
 * The batch is checked and stored here (empty suite 404, unknown model or scorer 404); a job drives it.
 */
export const POST = route<{ name: string }>(async (request, { name }) => {
  const asked = await parseBody(request, runBody);
  const { suites } = await serverSuites();
  const batch = await createBatch({ suites, registry: await serverRegistry() }, { suite: name, model: asked.model, stripMemory: asked.stripMemory, scorer: asked.scorer });
  const input: SuiteBatchJobInput = { batchId: batch.batchId };
  const job = await (await jobRunner()).submit(SUITE_BATCH_JOB, input);
  return json({ jobId: job.jobId, batchId: batch.batchId }, 202);
});
