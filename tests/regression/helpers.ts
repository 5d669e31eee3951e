/** Shared by the regression tests: demo runs written by the real loop, and raw record rows. */
import { demoRuns } from "@/lib/demo/seed";
import type { Journal } from "@/lib/journal/ports";
import type { SqlClient } from "@/lib/store/sql-client";

/** Writes the named demo runs (in demo order, so that a replay finds its source). */
export async function writeDemoRuns(store: Journal, ...runIds: string[]): Promise<void> {
  for (const run of demoRuns()) if (runIds.includes(run.runId)) await run.write(store);
}

/** A run's records exactly as stored: the database's own text of each payload when there is a database. */
export async function storedRecords(store: Journal, runId: string): Promise<string> {
  const client = (store as Partial<{ client: SqlClient }>).client;
  if (client) {
    const rows = await client.query("SELECT seq, name, kind, payload::text AS payload, created_at::text AS created_at FROM records WHERE run_id = $1 ORDER BY seq", [runId]);
    return JSON.stringify(rows);
  }
  return JSON.stringify(await store.history(runId));
}
