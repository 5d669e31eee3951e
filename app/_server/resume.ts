/**
 * A person's decision on a paused run (approval, denial, answer, resolution), as every decision
 * endpoint handles it: journal it in the run that waits (the first decision stands: a second one is
 * AlreadyDecidedError), then drive the run's root again through the server's registry, under a
 * lease, with sleeps registered on the database waker.
 */
import "server-only";
import type { Decided } from "@/lib/recovery/decisions";
import { resumeRoot, type Resumed } from "@/lib/recovery/actions";
import { AlreadyDecidedError } from "@/lib/recovery/errors";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { PostgresWaker } from "@/lib/store/postgres-waker";
import { serverRegistry } from "./registry";
import { getStore } from "./store";

/** The decision's record (under `field`, e.g. "answer") and how the resumed root ended. */
export async function decideThenResume<Payload extends { by: string }, Field extends string>(
  runId: string,
  field: Field,
  decide: (store: PostgresStore) => Promise<Decided<Payload>>,
): Promise<{ runId: string } & Record<Field, Payload> & Resumed> {
  const store = await getStore();
  const decided = await decide(store);
  if (!decided.created) throw new AlreadyDecidedError(decided.runId, decided.record.payload.by);
  const resumed = await resumeRoot(store, await serverRegistry(), runId, { waker: new PostgresWaker(store) });
  return { runId: decided.runId, [field]: decided.record.payload, ...resumed } as { runId: string } & Record<Field, Payload> & Resumed;
}
