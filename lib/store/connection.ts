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

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<SqlClient> {
  if (target.kind === "embedded") return openEmbedded(target.folder, options);
  const sql = postgres(target.url, {
    max: options.poolSize ?? 10,
    onnotice: () => undefined,
    connect_timeout: 10,
    idle_timeout: 30,
    connection: { application_name: "backtrack" },
  });
  try {
    await sql`select 1`;
    if (options.migrate ?? true) await migrateServer(target.url);
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => undefined);
    if (isConnectionFailure(error)) throw new DatabaseUnreachableError(redact(target.url), { cause: error });
    throw error;
  }
  return new PostgresClient(sql, redact(target.url));
}

function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  return ["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "CONNECT_TIMEOUT", "EHOSTUNREACH", "3D000", "28P01", "28000"].includes(code);
}
