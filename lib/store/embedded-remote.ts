/**
 * A SqlClient for an embedded database owned by another process: every query goes over loopback
 * HTTP to the owner (embedded-owner.ts). Single statements only; the owner runs each in PGlite.
 */
import { request } from "node:http";
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

export class RemoteEmbeddedClient implements SqlClient {
  readonly kind = "embedded-remote" as const;
  private readonly base: string;

  constructor(
    private readonly owner: OwnerInfo & { port: number },
    readonly target: string,
  ) {
    this.base = `http://127.0.0.1:${owner.port}`;
  }

  async health(timeoutMs: number): Promise<boolean> {
    try {
      const response = await fetch(`${this.base}/health`, {
        headers: { authorization: `Bearer ${this.owner.token}` },
        signal: AbortSignal.timeout(timeoutMs),
      });
      return response.ok;
    } catch {
      return false;
    }
  }

  private async post(path: string, body: unknown): Promise<unknown[]> {
    const response = await fetch(`${this.base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.owner.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const parsed = (await response.json()) as { rows?: unknown[]; error?: { code: string; message: string } };
    if (!response.ok || parsed.error) {
      throw new EmbeddedRemoteError(parsed.error?.message ?? `owner answered ${response.status}`, parsed.error?.code ?? "remote");
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
        `${this.base}/listen?channel=${encodeURIComponent(channel)}`,
        { headers: { authorization: `Bearer ${this.owner.token}` } },
        (response) => {
          if (response.statusCode !== 200) {
            reject(new EmbeddedRemoteError(`owner refused to listen (${response.statusCode})`, "remote"));
            response.resume();
            return;
          }
          let buffer = "";
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
