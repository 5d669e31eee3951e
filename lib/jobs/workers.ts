/**
 * The `workers` table: every process that runs jobs (`backtrack worker`, an inspector's
 * in-process worker) says who it is and renews its heartbeat while it lives, so /recovery can
 * show the fleet: each worker, its last heartbeat, and what it holds (its running jobs, and the
 * run leases whose holder names it: a worker's holders are `<workerId>/<n>`). A worker that stops
 * cleanly removes its row; a killed one's row goes stale and is removed an hour later.
 */
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { iso } from "../store/rows";
import type { SqlClient } from "../store/sql-client";

export type WorkerRole = "worker" | "inspector";

export interface WorkerInfo {
  workerId: string;
  role: WorkerRole;
  host: string;
  pid: number;
  kinds: string[];
  concurrency: number;
}

export interface WorkerView extends WorkerInfo {
  startedAt: string;
  heartbeatAt: string;
  /** Its heartbeat is older than the staleness bound: it stopped without saying so. */
  stale: boolean;
  /** The jobs it is running now. */
  jobs: Array<{ jobId: string; kind: string; attempts: number; runId: string | null }>;
  /** The runs it leases now. */
  leases: Array<{ runId: string; expiresAt: string }>;
}

/** A worker id unique to this process: host, pid and a random suffix (a restarted process gets another). */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

/** Registers the worker, or renews its heartbeat (the same statement). */
export async function beatWorker(client: SqlClient, info: WorkerInfo): Promise<void> {
  await client.query(
    `INSERT INTO workers (worker_id, role, host, pid, kinds, concurrency) VALUES ($1::text, $2::text, $3::text, $4::int, $5::text::jsonb, $6::int)
     ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = now()`,
    [info.workerId, info.role, info.host, info.pid, JSON.stringify(info.kinds), info.concurrency],
    { prepare: true },
  );
}

export async function removeWorker(client: SqlClient, workerId: string): Promise<void> {
  await client.query("DELETE FROM workers WHERE worker_id = $1::text", [workerId]);
}

/** Forgets workers silent for an hour (killed ones never remove their row). */
export async function forgetSilentWorkers(client: SqlClient): Promise<void> {
  await client.query("DELETE FROM workers WHERE heartbeat_at < now() - interval '1 hour'");
}

interface WorkerRow {
  worker_id: string;
  role: WorkerRole;
  host: string;
  pid: number;
  kinds: unknown;
  concurrency: number;
  started_at: Date | string;
  heartbeat_at: Date | string;
  stale: boolean;
  jobs: unknown;
  leases: unknown;
}

const parsed = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));

// Three queries' worth in one: the workers, their running jobs and their live leases.
const LIST_SQL = `
SELECT w.worker_id, w.role, w.host, w.pid, w.kinds::text AS kinds, w.concurrency, w.started_at, w.heartbeat_at,
       w.heartbeat_at < now() - $1::double precision * interval '1 millisecond' AS stale,
       (SELECT coalesce(json_agg(json_build_object('jobId', j.job_id, 'kind', j.kind, 'attempts', j.attempts, 'runId', j.run_id) ORDER BY j.job_id), '[]')::text
          FROM jobs j WHERE j.owner = w.worker_id AND j.status = 'running') AS jobs,
       (SELECT coalesce(json_agg(json_build_object('runId', l.run_id, 'expiresAt', l.expires_at) ORDER BY l.run_id), '[]')::text
          FROM leases l WHERE l.holder LIKE w.worker_id || '/%' AND l.expires_at > now()) AS leases
FROM workers w
ORDER BY w.role, w.worker_id`;

/** Every registered worker with what it holds; `staleAfterMs` decides which are shown as stopped. */
export async function listWorkers(client: SqlClient, staleAfterMs: number): Promise<WorkerView[]> {
  const rows = await client.query<WorkerRow>(LIST_SQL, [staleAfterMs]);
  return rows.map((row) => ({
    workerId: row.worker_id,
    role: row.role,
    host: row.host,
    pid: Number(row.pid),
    kinds: parsed<string[]>(row.kinds),
    concurrency: Number(row.concurrency),
    startedAt: iso(row.started_at),
    heartbeatAt: iso(row.heartbeat_at),
    stale: row.stale === true,
    jobs: parsed<WorkerView["jobs"]>(row.jobs),
    leases: parsed<WorkerView["leases"]>(row.leases).map((lease) => ({ ...lease, expiresAt: new Date(lease.expiresAt).toISOString() })),
  }));
}
