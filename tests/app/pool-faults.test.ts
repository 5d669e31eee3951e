/**
 * A projection worker killed mid-build, as a client of the HTTP API meets it (issue 42): the
 * request whose build it was fails cleanly (503 `worker_failed`, with Retry-After, and no
 * internals), the server goes on, and the next request gets a fresh worker and the right answer.
 * The real route, the real pool and its built worker, on a real server database.
 */
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { writeBigRun } from "@/bench/big-runs";
import type { PostgresStore } from "@/lib/store";
import { freshServerDatabase } from "../helpers/databases";

vi.mock("server-only", () => ({}));

const RECORDS = 40_000;
const get = (path: string) => new NextRequest(`http://127.0.0.1${path}`);
const params = <T>(value: T) => ({ params: Promise.resolve(value) });

describe("a projection worker killed mid-build", () => {
  let drop: () => Promise<void>;
  let store: PostgresStore;
  const saved = { url: process.env.DATABASE_URL, demo: process.env.BACKTRACK_DEMO, threads: process.env.BACKTRACK_POOL_THREADS };

  beforeAll(async () => {
    const database = await freshServerDatabase();
    drop = database.drop;
    Object.assign(process.env, { DATABASE_URL: database.url, BACKTRACK_DEMO: "0", BACKTRACK_POOL_THREADS: "1" });
    const { getStore } = await import("@/app/_server/store");
    store = await getStore();
    await writeBigRun(store, "big", RECORDS);
  });

  afterAll(async () => {
    const { projectionPool } = await import("@/app/_server/pool");
    await projectionPool().close();
    await store.close();
    await drop();
    Object.assign(process.env, { DATABASE_URL: saved.url, BACKTRACK_DEMO: saved.demo, BACKTRACK_POOL_THREADS: saved.threads });
  });

  it("fails that request with 503 worker_failed, and the next request succeeds", async () => {
    const { projectionPool } = await import("@/app/_server/pool");
    const { GET } = await import("@/app/api/runs/[id]/state/route");
    const pool = projectionPool();
    const run = vi.spyOn(pool, "run");
    run.mockImplementation(function (this: typeof pool, ...args) {
      const task = Object.getPrototypeOf(pool).run.apply(this, args);
      // The second page of the cold build: kill the one worker while it folds it.
      if (run.mock.calls.length === 2) void pool.threads[0]!.terminate();
      return task;
    } as typeof pool.run);
    const failed = await GET(get(`/api/runs/big/state?at=${RECORDS - 1}`), params({ id: "big" }));
    expect(failed.status).toBe(503);
    expect(Number(failed.headers.get("retry-after"))).toBeGreaterThan(0);
    const problem = (await failed.json()) as { error: { code: string; message: string } };
    expect(problem.error.code).toBe("worker_failed");
    expect(problem.error.message).not.toMatch(/at |\.ts|\.mjs/);
    run.mockRestore();

    const answered = await GET(get(`/api/runs/big/state?at=${RECORDS - 1}`), params({ id: "big" }));
    expect(answered.status).toBe(200);
    const { state } = (await answered.json()) as { state: { at: number; lastSeq: number; status: string; modelTurns: number } };
    const history = await store.history("big");
    expect(state).toMatchObject({ at: RECORDS - 1, lastSeq: RECORDS - 1, status: "complete", modelTurns: history.filter((record) => record.kind === "model").length });
    expect(pool.threads.length).toBeGreaterThanOrEqual(1);
  });
});
