/**
 * The server process's projection pool (lib/pool): worker threads for the cold builds that used to
 * hold the request thread. Started with the server (instrumentation.ts) so the first cold request
 * finds a worker ready; sized and bounded by BACKTRACK_POOL_THREADS, BACKTRACK_POOL_QUEUE and
 * BACKTRACK_POOL_TASK_MS (lib/pool/pool.ts). Page reads take turns with every other heavy read of
 * the process (turns.ts).
 */
import "server-only";
import type { Gate } from "@/lib/pool/pages";
import { poolOptionsFromEnv, ProjectionPool } from "@/lib/pool/pool";
import { processWide } from "./process-wide";
import { bulkRead, nextTurn } from "./turns";

export function projectionPool(): ProjectionPool {
  return processWide("pool", () => new ProjectionPool(poolOptionsFromEnv()));
}

/** A heavy pass's page read: after its turn, one bulk read at a time. */
export const pagedRead: Gate = async (read) => {
  await nextTurn();
  return bulkRead(read);
};
