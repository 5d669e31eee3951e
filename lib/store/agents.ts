/**
 * The agent names in a database, for the runs list's agent filter. A loose index scan (one
 * index probe per distinct name on runs_agent_started_idx), so it stays fast with a million runs
 * where SELECT DISTINCT would read them all.
 */
import type { SqlClient } from "./sql-client";

const AGENTS_SQL = `
WITH RECURSIVE names AS (
  (SELECT agent FROM runs WHERE agent IS NOT NULL ORDER BY agent LIMIT 1)
  UNION ALL
  SELECT (SELECT r.agent FROM runs r WHERE r.agent > names.agent ORDER BY r.agent LIMIT 1)
  FROM names WHERE names.agent IS NOT NULL
)
SELECT agent FROM names WHERE agent IS NOT NULL LIMIT $1::int`;

export async function agentNames(client: SqlClient, limit = 500): Promise<string[]> {
  const rows = await client.query<{ agent: string }>(AGENTS_SQL, [limit]);
  return rows.map((row) => row.agent);
}
