/**
 * The loopback server through which other processes use an embedded database this process owns.
 * It listens on 127.0.0.1 only and requires the token from the owner lock (readable only by the
 * folder's user). Queries run one at a time inside PGlite, like any local query.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { sameSecret } from "./same-secret";

const MAX_BODY_BYTES = 64 * 1024 * 1024;
const KEEPALIVE_MS = 15_000;

interface QueryBody {
  text: string;
  params?: unknown[];
  arrays?: boolean;
}

export interface OwnerServer {
  port: number;
  close(): Promise<void>;
}

export async function startOwnerServer(db: PGlite, token: string): Promise<OwnerServer> {
  const server: Server = createServer((request, response) => {
    if (!sameSecret(request.headers.authorization ?? "", `Bearer ${token}`)) {
      return reply(response, 401, { error: { code: "unauthorized", message: "missing or wrong owner token" } });
    }
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method === "GET" && url.pathname === "/health") return reply(response, 200, { ok: true, pid: process.pid });
    if (request.method === "GET" && url.pathname === "/listen") return listen(db, url.searchParams.get("channel"), request, response);
    if (request.method === "POST" && (url.pathname === "/query" || url.pathname === "/exec")) {
      return void readBody(request)
        .then(async (body) => {
          const parsed = JSON.parse(body) as QueryBody;
          if (url.pathname === "/exec") {
            await db.exec(parsed.text);
            return reply(response, 200, { rows: [] });
          }
          const result = await db.query(parsed.text, parsed.params ?? [], parsed.arrays ? { rowMode: "array" } : {});
          reply(response, 200, { rows: result.rows });
        })
        .catch((error: unknown) => {
          const failure = error as { message?: string; code?: string };
          reply(response, 400, { error: { code: failure.code ?? "query_failed", message: failure.message ?? String(error) } });
        });
    }
    reply(response, 404, { error: { code: "not_found", message: `no route ${request.method} ${url.pathname}` } });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  server.unref();
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function listen(db: PGlite, channel: string | null, request: IncomingMessage, response: ServerResponse): void {
  if (!channel || !/^[a-z_][a-z0-9_]*$/.test(channel)) {
    return reply(response, 400, { error: { code: "bad_input", message: "channel must be a plain identifier" } });
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
  response.write(": listening\n\n");
  const keepalive = setInterval(() => response.write(": keepalive\n\n"), KEEPALIVE_MS);
  keepalive.unref();
  const stop = db.listen(channel, (payload) => {
    response.write(`data: ${payload.replaceAll("\n", "\\n")}\n\n`);
  });
  request.on("close", () => {
    clearInterval(keepalive);
    void stop.then((unlisten) => unlisten()).catch(() => undefined);
  });
}
