/**
 * The inspector's one store per server process. Opening it makes this process the owner of an
 * embedded database (other processes reach it through this one), applies migrations, and writes
 * the demo runs into an empty database unless BACKTRACK_DEMO=0.
 */
import "server-only";
import { writeDemo } from "@/lib/demo/seed";
import { openStore, type PostgresStore } from "@/lib/store";
import { processWideStart } from "./process-wide";

async function open(): Promise<PostgresStore> {
  const store = await openStore({ url: process.env.DATABASE_URL });
  if (process.env.BACKTRACK_DEMO !== "0") {
    const { runs } = await store.runs({ limit: 1 });
    if (runs.length === 0) await writeDemo(store);
  }
  return store;
}

export function getStore(): Promise<PostgresStore> {
  // A failed open is not kept: the next request tries again (the database may come up).
  return processWideStart("store", open);
}
