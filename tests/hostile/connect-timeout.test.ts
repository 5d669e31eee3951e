/**
 * Issue 12 item 9: a database URL pointing at something that is not PostgreSQL, or that accepts
 * the connection and never answers, ends in a bounded, one-line error naming the URL without its
 * password: exit 2 on the CLI, 503 database_unreachable from the inspector. Never a hang.
 */
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { runCli } from "../helpers/processes";

/** The health route's arguments as Next passes them (route() reads the URL and the params). */
const healthRequest = () => new NextRequest("http://127.0.0.1/api/health");
const noParams = { params: Promise.resolve({}) };

vi.mock("server-only", () => ({}));

/** A TCP listener that accepts and then behaves as `greet` says: silent, or like NATS. */
async function listener(greet: (socket: Socket) => void): Promise<{ port: number; server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
    greet(socket);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
  return { port: (server.address() as AddressInfo).port, server, sockets };
}

const SECRET = "hunter2-secret";
const MAX_MS = 15_000;

describe("connecting to something that is not a PostgreSQL server", () => {
  let silent: Awaited<ReturnType<typeof listener>>;
  let natsLike: Awaited<ReturnType<typeof listener>>;

  beforeAll(async () => {
    silent = await listener(() => undefined);
    // What NATS does on 4222: it speaks first, a line PostgreSQL clients do not understand, and
    // answers the client's first message with an error and a close (postgres.js then tries again, forever).
    natsLike = await listener((socket) => {
      socket.write('INFO {"server_id":"fake","version":"2.10.0"}\r\n');
      socket.once("data", () => socket.end("-ERR 'Unknown Protocol Operation'\r\n"));
    });
  });
  afterAll(() => {
    for (const { server, sockets } of [silent, natsLike]) {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  const url = (port: number) => `postgres://backtrack:${SECRET}@127.0.0.1:${port}/journal`;

  async function expectBoundedFailure(port: number, env: Record<string, string> = {}) {
    const started = Date.now();
    const result = await runCli(["runs", "--db", url(port)], env);
    const elapsed = Date.now() - started;
    expect(result.code, result.stderr).toBe(2);
    expect(elapsed).toBeLessThan(MAX_MS);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(`cannot reach the database at postgres://backtrack:***@127.0.0.1:${port}/journal`);
    expect(result.stderr).not.toContain(SECRET);
    return { elapsed, stderr: result.stderr };
  }

  it("a peer that speaks first and closes on the client's first message (NATS-like): exit 2 within 15 s with the default timeout", async () => {
    const { stderr } = await expectBoundedFailure(natsLike.port);
    expect(stderr).toContain("no PostgreSQL answer within 8000 ms");
  });

  it("a listener that accepts and never speaks: exit 2, bounded by BACKTRACK_CONNECT_TIMEOUT_MS", async () => {
    // The CLI's own start (tsx, modules) varies with the machine's load: measure it on a refused port.
    const refusedStarted = Date.now();
    expect((await runCli(["runs", "--db", url(1)])).code).toBe(2);
    const baseline = Date.now() - refusedStarted;
    const { elapsed } = await expectBoundedFailure(silent.port, { BACKTRACK_CONNECT_TIMEOUT_MS: "1000" });
    // Cut at about 1 s, well before postgres.js's own 10 s connect_timeout.
    expect(elapsed - baseline).toBeLessThan(6_000);
  });

  it("127.0.0.1:4222 (NATS on this machine, or nothing listening): exit 2, bounded", async () => {
    const started = Date.now();
    const result = await runCli(["runs", "--db", url(4222)], { BACKTRACK_CONNECT_TIMEOUT_MS: "2000" });
    expect(result.code, result.stderr).toBe(2);
    expect(Date.now() - started).toBeLessThan(MAX_MS);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("postgres://backtrack:***@127.0.0.1:4222/journal");
    expect(result.stderr).not.toContain(SECRET);
  });

  it("the inspector answers 503 database_unreachable instead of hanging", async () => {
    vi.stubEnv("DATABASE_URL", url(natsLike.port));
    vi.stubEnv("BACKTRACK_CONNECT_TIMEOUT_MS", "1000");
    vi.stubEnv("BACKTRACK_DEMO", "0");
    try {
      const { GET } = await import("@/app/api/health/route");
      const started = Date.now();
      const response = await GET(healthRequest(), noParams);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(response.status).toBe(503);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("database_unreachable");
      expect(body.error.message).toContain(`postgres://backtrack:***@127.0.0.1:${natsLike.port}/journal`);
      expect(body.error.message).not.toContain(SECRET);
      // A failed open is not kept: a second request tries again, and is bounded again.
      expect((await GET(healthRequest(), noParams)).status).toBe(503);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
