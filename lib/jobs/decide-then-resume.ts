/**
 * A person's decision on a paused run, as the inspector's endpoints take it: journal it now (the
 * first decision stands: a second one is AlreadyDecidedError), then resume the run in a `resume`
 * job, so the answer does not wait for the model. Invariant: the decision is recorded before the
 * job exists; if the job never runs (the server stops), the run is unfinished with its decision
 * in the journal, and recovery resumes it.
 */
import type { Decided } from "../recovery/pause-decisions";
import { AlreadyDecidedError } from "../recovery/errors";
import { RESUME_JOB, type ResumeJobInput } from "./kinds";
import type { JobRunner } from "./runner";

export type Submitted<Field extends string, Payload> = { runId: string; jobId: string } & Record<Field, Payload>;

/** Records the decision `decide` makes, then submits the resume of `runId`'s root: `{ runId, <field>: payload, jobId }`. */
export async function decideThenSubmit<Payload extends { by: string }, Field extends string>(
  runner: Pick<JobRunner, "submit">,
  runId: string,
  field: Field,
  decide: () => Promise<Decided<Payload>>,
): Promise<Submitted<Field, Payload>> {
  const decided = await decide();
  if (!decided.created) throw new AlreadyDecidedError(decided.runId, decided.record.payload.by);
  const input: ResumeJobInput = { runId, decision: { runId: decided.runId, name: decided.record.name, by: decided.record.payload.by } };
  const job = await runner.submit(RESUME_JOB, input);
  return { runId: decided.runId, [field]: decided.record.payload, jobId: job.jobId } as Submitted<Field, Payload>;
}
