/**
 * A person's decision on a paused run (approval, denial, answer, resolution), as every decision
 * endpoint handles it: journal it in the run that waits (the first decision stands: a second one is
 * AlreadyDecidedError), then resume the run's root in a `resume` job on the server's JobRunner
 * (the server's registry, under a lease, sleeps on the database waker), so the request answers at
 * once instead of waiting for the model. GET /api/jobs/{jobId} reports how the resume ended.
 */
import "server-only";
import { decideThenSubmit, type Submitted } from "@/lib/jobs/decide-then-resume";
import type { Decided } from "@/lib/recovery/pause-decisions";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { jobRunner } from "./jobs";
import { getStore } from "./store";

/** The decision's record (under `field`, e.g. "answer") and the id of the job resuming its root. */
export async function decideThenResume<Payload extends { by: string }, Field extends string>(
  runId: string,
  field: Field,
  decide: (store: PostgresStore) => Promise<Decided<Payload>>,
): Promise<Submitted<Field, Payload>> {
  const store = await getStore();
  // The runner first: a server that cannot run the resume (a broken config) refuses the decision instead of recording it.
  const runner = await jobRunner();
  return decideThenSubmit(runner, runId, field, () => decide(store));
}
