/**
 * PostgresWaker: durable timers in the `timers` table, so that wake-ups survive a restart.
 * Registering is an insert that keeps the first row; due wake-ups are one range scan of
 * timers_wake_idx. The clock that decides "due" is this process's (as the sleep's own check is);
 * pass `now` to use another.
 */
import type { Wake, Waker } from "../journal/ports";
import { iso } from "./rows";
import type { SqlClient } from "./sql-client";

const REGISTER_SQL = `
INSERT INTO timers (run_id, name, root_run_id, wake_at) VALUES ($1::text, $2::text, $3::text, $4::timestamptz)
ON CONFLICT (run_id, name) DO NOTHING`;

const DUE_SQL = `
SELECT run_id, name, root_run_id, wake_at FROM timers
WHERE wake_at <= $1::timestamptz ORDER BY wake_at LIMIT $2::int`;

const CLEAR_SQL = `DELETE FROM timers WHERE run_id = $1::text AND name = $2::text`;

interface TimerRow {
  run_id: string;
  name: string;
  root_run_id: string;
  wake_at: Date | string;
}

export class PostgresWaker implements Waker {
  private readonly client: SqlClient;

  constructor(
    source: SqlClient | { client: SqlClient },
    private readonly clock: () => number = Date.now,
  ) {
    this.client = "client" in source ? source.client : source;
  }

  now(): number {
    return this.clock();
  }

  async register(wake: Wake): Promise<void> {
    await this.client.query(REGISTER_SQL, [wake.runId, wake.name, wake.rootRunId, wake.wakeAt], { prepare: true });
  }

  async due(limit = 1_000): Promise<Wake[]> {
    const rows = await this.client.query<TimerRow>(DUE_SQL, [new Date(this.now()).toISOString(), limit], { prepare: true });
    return rows.map((row) => ({ runId: row.run_id, name: row.name, rootRunId: row.root_run_id, wakeAt: iso(row.wake_at) }));
  }

  async clear(runId: string, name: string): Promise<void> {
    await this.client.query(CLEAR_SQL, [runId, name], { prepare: true });
  }

  /** Every timer, due or not (for the CLI and tests). */
  async pending(): Promise<Wake[]> {
    const rows = await this.client.query<TimerRow>(`SELECT run_id, name, root_run_id, wake_at FROM timers ORDER BY wake_at`);
    return rows.map((row) => ({ runId: row.run_id, name: row.name, rootRunId: row.root_run_id, wakeAt: iso(row.wake_at) }));
  }
}
