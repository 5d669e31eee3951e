import { z } from "zod";
import { jobRunner } from "@/app/_server/jobs";
import { json, parseBody, route } from "@/app/_server/http";
import { serverRegistry } from "@/app/_server/registry";
import { getStore } from "@/app/_server/store";
import { MissingModelError } from "@/lib/fork/errors";
import { BISECT_JOB, type BisectJobInput } from "@/lib/jobs/bisect-job";
import { RunNotFoundError } from "@/lib/journal/errors";

export const dynamic = "force-dynamic";

const body = z.object({ model: z.string().min(1).max(200), scorer: z.string().min(1).max(200) }).strict();

/**
 * POST /api/runs/{id}/bisect { model, scorer } → 202 { jobId }: a `bisect` job finds the model
 * decision that flips the run under `model` (its result is the BisectResult). Checked first: an
 * unknown run or scorer 404, a model that is not registered 422 (`missing_model`).
 */
export const POST = route<{ id: string }>(async (request, { id }) => {
  const asked = await parseBody(request, body);
  const registry = await serverRegistry();
  const store = await getStore();
  if (!(await store.run(id))) throw new RunNotFoundError(id);
  registry.scorer(asked.scorer);
  const models = registry.modelEntries().map((entry) => entry.name);
  if (!models.includes(asked.model)) throw new MissingModelError(id, asked.model, models);
  const input: BisectJobInput = { runId: id, model: asked.model, scorer: asked.scorer };
  const job = await (await jobRunner()).submit(BISECT_JOB, input);
  return json({ jobId: job.jobId }, 202);
});
