import { z } from "zod";
import { jobRunner } from "@/app/_server/jobs";
import { json, parseBody, route } from "@/app/_server/http";
import { serverRegistry } from "@/app/_server/registry";
import { getStore } from "@/app/_server/store";
import { FORK_JOB, type ForkJobInput } from "@/lib/jobs/fork-job";
import { reserveTryFork } from "@/lib/playground/fork-try";

export const dynamic = "force-dynamic";

const body = z.object({ allowEffects: z.boolean().optional() }).strict();

/**
 * POST /api/tries/{id}/fork { allowEffects? } → 202 { jobId, newRunId }: "Fork with this". {id} is
 * a playground try's run; the fork is written now (`<id>~fork-<n>`) and the job drives it live from
 * the try's output, as a fork job does. 400 `bad_try` for a run that is not a try, 422
 * `missing_model`.
 */
export const POST = route<{ id: string }>(async (request, { id }) => {
  const asked = await parseBody(request, body);
  const store = await getStore();
  const { newRunId, at } = await reserveTryFork(store, id, { registry: await serverRegistry(), allowEffects: asked.allowEffects === true });
  const input: ForkJobInput = { runId: id, newRunId, at };
  const job = await (await jobRunner()).submit(FORK_JOB, input);
  return json({ jobId: job.jobId, newRunId }, 202);
});
