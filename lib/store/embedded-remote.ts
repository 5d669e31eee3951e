/**
 * A SqlClient for an embedded database owned by another process: every query goes over loopback
 * HTTP to the owner (embedded-owner.ts). Single statements only; the owner runs each in PGlite.
 * When the owner dies, calls fail with OwnerLostError (embedded-failover.ts takes the folder over).
 */
import { request } from "node:http";
import { BacktrackError } from "../journal/errors";
import type { SqlClient } from "./sql-client";
import type { OwnerInfo } from "./embedded-lock";

export class EmbeddedRemoteError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * The owner process stopped answering. `reached` says whether the request got to it: when it did
 * not (the connection was refused), the statement never ran and may be sent again to a new owner;
 * when it did, whether it ran is unknown.
 */
export class OwnerLostError extends BacktrackError {
  constructor(
    readonly folder: string,
    readonly ownerPid: number,
    readonly reached: boolean,
    options?: { cause?: unknown },
  ) {
    super(
      "database_owner_lost",
      reached
        ? `process ${ownerPid}, which owned the embedded database in ${folder}, stopped while running a statement for this one; ` +
            `whether that statement was applied is unknown: check, then run the command again`
        : `process ${ownerPid}, which owned the embedded database in ${folder}, is gone`,
      options,
    );
  }
}

interface Answer {
  status: number;
  body: string;
}

export class RemoteEmbeddedClient implements SqlClient {
  readonly kind = "embedded-remote" as const;

  constructor(
    private readonly owner: OwnerInfo & { port: number },
    readonly target: string,
    private readonly folder = target,
  ) {}

  async health(timeoutMs: number): Promise<boolean> {
    try {
      return (await this.call("GET", "/health", undefined, timeoutMs)).status === 200;
    } catch {
      return false;
    }
  }

  /**
   * One request on a connection of its own (no keep-alive): a refused connection then proves the
   * owner never saw the statement, which a reused socket closed by a dead owner would not.
   */
  private call(method: string, path: string, body?: string, timeoutMs?: number): Promise<Answer> {
    return new Promise((resolve, reject) => {
      let reached = false;
      const headers = { authorization: `Bearer ${this.owner.token}`, "content-type": "application/json", connection: "close" };
      const options = { host: "127.0.0.1", port: this.owner.port, method, path, agent: false, timeout: timeoutMs, headers };
      const outgoing = request(options, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", (error) => reject(new OwnerLostError(this.folder, this.owner.pid, true, { cause: error })));
      });
      outgoing.on("socket", (socket) => socket.once("connect", () => (reached = true)));
      outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      outgoing.on("error", (error) => reject(new OwnerLostError(this.folder, this.owner.pid, reached, { cause: error })));
      outgoing.end(body);
    });
  }

  private async post(path: string, body: unknown): Promise<unknown[]> {
    const answer = await this.call("POST", path, JSON.stringify(body));
    // Another process now listens on the owner's old port (a wrong token): the statement never ran.
    if (answer.status === 401) throw new OwnerLostError(this.folder, this.owner.pid, false);
    let parsed: { rows?: unknown[]; error?: { code: string; message: string } };
    try {
      parsed = JSON.parse(answer.body) as typeof parsed;
    } catch (error) {
      throw new OwnerLostError(this.folder, this.owner.pid, true, { cause: error });
    }
    if (answer.status !== 200 || parsed.error) {
      throw new EmbeddedRemoteError(parsed.error?.message ?? `owner answered ${answer.status}`, parsed.error?.code ?? "remote");
    }
    return parsed.rows ?? [];
  }

  async query<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
    return (await this.post("/query", { text, params })) as Row[];
  }

  async queryArrays(text: string, params: unknown[] = []): Promise<unknown[][]> {
    return (await this.post("/query", { text, params, arrays: true })) as unknown[][];
  }

  async exec(text: string): Promise<void> {
    await this.post("/exec", { text });
  }

  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    return new Promise((resolve, reject) => {
      const outgoing = request(
        `http://127.0.0.1:${this.owner.port}/listen?channel=${encodeURIComponent(channel)}`,
        { headers: { authorization: `Bearer ${this.owner.token}` } },
        (response) => {
          if (response.statusCode !== 200) {
            reject(new EmbeddedRemoteError(`owner refused to listen (${response.statusCode})`, "remote"));
            response.resume();
            return;
          }
          let buffer = "";
          // The owner dying ends the stream; that is not this process's crash.
          response.on("error", () => undefined);
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            buffer += chunk;
            let end: number;
            while ((end = buffer.indexOf("\n\n")) >= 0) {
              const event = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              for (const line of event.split("\n")) {
                if (line.startsWith("data: ")) onMessage(line.slice(6).replaceAll("\\n", "\n"));
              }
            }
          });
          resolve(async () => {
            outgoing.destroy();
          });
        },
      );
      outgoing.on("error", (error) => reject(error));
      outgoing.end();
    });
  }

  async close(): Promise<void> {
    // Nothing is held open but listen streams, which their callers close.
  }
}
