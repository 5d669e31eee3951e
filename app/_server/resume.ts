/**
 * After a person's decision is journaled (approval, denial, answer): drive the run's root again
 * through the server's registry, under a lease, with sleeps registered on the database waker.
 */
import "server-only";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { resumeRoot, type Resumed } from "@/lib/recovery/actions";
import { PostgresWaker } from "@/lib/store/postgres-waker";
import { serverRegistry } from "./registry";

export async function resumeDecided(store: PostgresStore, runId: string): Promise<Resumed> {
  return resumeRoot(store, await serverRegistry(), runId, { waker: new PostgresWaker(store) });
}
