import { jobRunner } from "@/app/_server/jobs";
import { json, parseBody, route } from "@/app/_server/http";
import { serverRegistry } from "@/app/_server/registry";
import { getStore } from "@/app/_server/store";
import { reserveFork } from "@/lib/fork/fork-run";
import { FORK_JOB, type ForkJobInput } from "@/lib/jobs/fork-job";
import { forkBody, forkOptions } from "./schema";

export const dynamic = "force-dynamic";

/**
 * POST /api/runs/{id}/forks { at, edit?, model?, allowEffects? } → 202 { jobId, newRunId }.
 * Everything a caller can fix is checked before the job, with nothing written: an unknown run
 * 404, a step or an edit that does not fit 400 (`bad_fork`), a model that is not registered 422
 * (`missing_model`). The fork's copy is written now (its id claimed); the job drives it.
 */
export const POST = route<{ id: string }>(async (request, { id }) => {
  const asked = await parseBody(request, forkBody);
  const store = await getStore();
  const newRunId = await reserveFork(store, id, forkOptions(asked, await serverRegistry()));
  const input: ForkJobInput = { runId: id, newRunId, at: asked.at };
  const job = await (await jobRunner()).submit(FORK_JOB, input);
  return json({ jobId: job.jobId, newRunId }, 202);
});
