/**
 * PostgresStore's recovery statements: enumeration of unfinished runs (Lister) and run leases
 * (Leaser). Each operation is one statement; lease times use the database clock, so processes
 * with skewed clocks still agree on expiry.
 */
import type { UnfinishedQuery, UnfinishedRun } from "../journal/ports";
import type { PauseState, RunOrigin, RunStatus } from "../journal/types";
import type { SqlClient } from "./sql-client";

// One range scan of the partial index runs_unfinished_idx (run_id where status <> 'complete'),
// joined to leases by primary key. completed_at also filters: a run whose status was overwritten
// after its run:complete (a late failure report) is still complete.
const UNFINISHED_SQL = `
SELECT r.run_id, r.parent_run_id, r.agent, r.origin, r.status, r.pause::text AS pause, r.error, r.updated_at,
       CASE WHEN l.expires_at > now() THEN l.holder END AS lease_holder,
       COALESCE(l.expires_at <= now(), false) AS abandoned
FROM runs r LEFT JOIN leases l ON l.run_id = r.run_id
WHERE r.status <> 'complete' AND r.completed_at IS NULL AND r.run_id > $1::text
ORDER BY r.run_id
LIMIT $2::int`;

// The lease is taken when absent, expired, or already the caller's: one atomic upsert.
const ACQUIRE_SQL = `
INSERT INTO leases (run_id, holder, expires_at, acquired_at)
VALUES ($1::text, $2::text, now() + $3::double precision * interval '1 millisecond', now())
ON CONFLICT (run_id) DO UPDATE SET
  holder = EXCLUDED.holder,
  expires_at = EXCLUDED.expires_at,
  acquired_at = CASE WHEN leases.holder = EXCLUDED.holder THEN leases.acquired_at ELSE EXCLUDED.acquired_at END
WHERE leases.expires_at <= now() OR leases.holder = EXCLUDED.holder
RETURNING 1 AS acquired`;

// Still ours (even if expired) means nobody took it over since: extending it is safe.
const RENEW_SQL = `
UPDATE leases SET expires_at = now() + $3::double precision * interval '1 millisecond'
WHERE run_id = $1::text AND holder = $2::text
RETURNING 1 AS renewed`;

const RELEASE_SQL = `DELETE FROM leases WHERE run_id = $1::text AND holder = $2::text`;

/** Page size when a caller gives none: large enough that recovery rarely needs a second page. */
const DEFAULT_UNFINISHED_PAGE = 10_000;

interface UnfinishedRow {
  run_id: string;
  parent_run_id: string | null;
  agent: string | null;
  origin: string;
  status: string;
  pause: string | null;
  error: string | null;
  updated_at: Date | string;
  lease_holder: string | null;
  abandoned: boolean;
}

export async function unfinishedRuns(client: SqlClient, query: UnfinishedQuery = {}): Promise<UnfinishedRun[]> {
  const rows = await client.query<UnfinishedRow>(UNFINISHED_SQL, [query.after ?? "", query.limit ?? DEFAULT_UNFINISHED_PAGE], { prepare: true });
  return rows.map((row) => ({
    runId: row.run_id,
    parentRunId: row.parent_run_id,
    agent: row.agent,
    origin: row.origin as RunOrigin,
    status: row.status as RunStatus,
    pause: row.pause === null ? null : (JSON.parse(row.pause) as PauseState),
    error: row.error,
    updatedAt: (row.updated_at instanceof Date ? row.updated_at : new Date(row.updated_at)).toISOString(),
    leaseHolder: row.lease_holder,
    abandoned: row.abandoned === true,
  }));
}

export async function acquireLease(client: SqlClient, runId: string, holder: string, ttlMs: number): Promise<boolean> {
  return (await client.query(ACQUIRE_SQL, [runId, holder, ttlMs], { prepare: true })).length > 0;
}

export async function renewLease(client: SqlClient, runId: string, holder: string, ttlMs: number): Promise<boolean> {
  return (await client.query(RENEW_SQL, [runId, holder, ttlMs], { prepare: true })).length > 0;
}

export async function releaseLease(client: SqlClient, runId: string, holder: string): Promise<void> {
  await client.query(RELEASE_SQL, [runId, holder], { prepare: true });
}

export interface LeaseRow {
  runId: string;
  holder: string;
  expiresAt: string;
  /** Past its expiry: the holder stopped renewing it. */
  expired: boolean;
}

// The ids travel as one JSON array: the same text parameter on postgres.js and PGlite.
const LEASES_SQL = `
SELECT run_id, holder, expires_at, expires_at <= now() AS expired FROM leases
WHERE run_id IN (SELECT jsonb_array_elements_text($1::text::jsonb))`;

/** The leases on these runs (a run without one is absent). */
export async function leasesOf(client: SqlClient, runIds: readonly string[]): Promise<LeaseRow[]> {
  if (runIds.length === 0) return [];
  const rows = await client.query<{ run_id: string; holder: string; expires_at: Date | string; expired: boolean }>(LEASES_SQL, [JSON.stringify(runIds)]);
  return rows.map((row) => ({ runId: row.run_id, holder: row.holder, expiresAt: new Date(row.expires_at).toISOString(), expired: row.expired === true }));
}
