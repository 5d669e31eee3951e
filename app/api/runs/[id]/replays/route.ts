import { z } from "zod";
import { jobRunner } from "@/app/_server/jobs";
import { json, parseBody, route } from "@/app/_server/http";
import { replayModels, serverRegistry } from "@/app/_server/registry";
import { getStore } from "@/app/_server/store";
import { REPLAY_JOB, type ReplayJobInput } from "@/lib/jobs/kinds";
import { BadInputError } from "@/lib/journal/errors";
import { RECORDED_MODEL } from "@/lib/regression/models";
import { reserveReplay } from "@/lib/regression/replay-run";

export const dynamic = "force-dynamic";

const body = z
  .object({
    mode: z.enum(["recorded", "model"]),
    model: z.string().min(1).max(200).optional(),
    stripMemoryContext: z.boolean().optional(),
  })
  .strict();

/**
 * POST /api/runs/{id}/replays → 202 { jobId, newRunId }. Everything a caller can fix is checked
 * here, before the job (unknown run 404, unknown model 400, no recorded input 422); the replay's
 * id is claimed now, so the answer names the run the job will write.
 */
export const POST = route<{ id: string }>(async (request, { id }) => {
  const asked = await parseBody(request, body);
  const models = await replayModels();
  if (asked.mode === "recorded" && asked.model) throw new BadInputError(`mode "recorded" replays the run's own outputs: it takes no model (use mode "model" for ${asked.model})`);
  if (asked.mode === "model" && !asked.model) throw new BadInputError(`mode "model" needs a model: one of ${models.join(", ")}`);
  if (asked.mode === "model" && asked.model && !models.includes(asked.model)) {
    throw new BadInputError(`unknown model "${asked.model}": this inspector knows ${models.join(", ")}`);
  }
  const model = asked.mode === "model" && asked.model ? asked.model : RECORDED_MODEL;
  const stripMemoryContext = asked.stripMemoryContext === true;
  const store = await getStore();
  const newRunId = await reserveReplay({ journal: store, registry: await serverRegistry(), runId: id, model, stripMemoryContext });
  const input: ReplayJobInput = { runId: id, model, stripMemoryContext, newRunId };
  const job = await (await jobRunner()).submit(REPLAY_JOB, input);
  return json({ jobId: job.jobId, newRunId }, 202);
});
