/**
 * Which database to use, and opening it. A URL is `postgres://…` (or `postgresql://…`) for a
 * server, or `pglite:PATH` for an embedded database in folder PATH. With neither `--db` nor
 * DATABASE_URL, the embedded database in `.backtrack/` under the working directory is used.
 */
import postgres from "postgres";
import { BadInputError, DatabaseUnreachableError } from "../journal/errors";
import { openEmbedded, type EmbeddedOptions } from "./embedded";
import { migrateServer } from "./migrate";
import { PostgresClient, type SqlClient } from "./sql-client";

export const DEFAULT_EMBEDDED_FOLDER = ".backtrack";

export type DatabaseTarget = { kind: "server"; url: string } | { kind: "embedded"; folder: string };

export function resolveDatabase(url?: string | null, env: NodeJS.ProcessEnv = process.env): DatabaseTarget {
  const chosen = url?.trim() || env.DATABASE_URL?.trim();
  if (!chosen) return { kind: "embedded", folder: DEFAULT_EMBEDDED_FOLDER };
  if (/^postgres(ql)?:\/\//i.test(chosen)) return { kind: "server", url: chosen };
  if (chosen.startsWith("pglite:")) {
    const folder = chosen.slice("pglite:".length).replace(/^\/\/(?=\/)/, "");
    if (!folder) throw new BadInputError("pglite: needs a folder, for example pglite:.backtrack");
    return { kind: "embedded", folder };
  }
  throw new BadInputError(`unsupported database URL "${redact(chosen)}": use postgres://… or pglite:PATH`);
}

/** A URL without its password, for messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@/]*@/, "//$1:***@");
}

export interface OpenOptions extends EmbeddedOptions {
  /** Apply migrations on open (default true for a server; an embedded owner always migrates). */
  migrate?: boolean;
  /** Connections in the server pool. */
  poolSize?: number;
}

/**
 * How long connecting and the first query may take, in milliseconds (BACKTRACK_CONNECT_TIMEOUT_MS,
 * default 8 s). postgres.js's connect_timeout alone does not bound a peer that accepts the TCP
 * connection but never speaks PostgreSQL (NATS on 4222, a proxy with nothing behind it).
 */
export function connectTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.BACKTRACK_CONNECT_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_CONNECT_TIMEOUT_MS;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 8_000;

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<SqlClient> {
  if (target.kind === "embedded") return openEmbedded(target.folder, options);
  const shown = redact(target.url);
  const timeoutMs = connectTimeoutMs();
  const sql = postgres(target.url, {
    max: options.poolSize ?? 10,
    onnotice: () => undefined,
    connect_timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
    idle_timeout: 30,
    connection: { application_name: "backtrack" },
  });
  try {
    // Any failure of the first query is the connection's: refused, TLS, authentication, a missing database.
    await withinTime(sql`select 1`, timeoutMs, () => new Error(`no PostgreSQL answer within ${timeoutMs} ms (is it a PostgreSQL server?)`));
  } catch (error) {
    await sql.end({ timeout: 0 }).catch(() => undefined);
    throw new DatabaseUnreachableError(shown, { cause: error });
  }
  try {
    if (options.migrate ?? true) await migrateServer(target.url);
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => undefined);
    if (isConnectionFailure(error)) throw new DatabaseUnreachableError(shown, { cause: error });
    throw error;
  }
  return new PostgresClient(sql, shown);
}

/** `work`, or the error `late()` makes if it has not settled within `ms` (a late settle is then ignored). */
async function withinTime<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(late()), ms);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  return ["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "CONNECT_TIMEOUT", "EHOSTUNREACH", "3D000", "28P01", "28000"].includes(code);
}
