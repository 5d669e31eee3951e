/**
 * SqlClient: the one port every database module talks through. Three adapters implement it:
 * postgres.js for a server, PGlite for the embedded database in this process, and a loopback
 * client for an embedded database owned by another process (see embedded-owner.ts).
 */
import type { PGlite } from "@electric-sql/pglite";
import type { Sql } from "postgres";

export type DatabaseKind = "server" | "embedded" | "embedded-remote";

export interface QueryOptions {
  /** Keep a prepared statement for this text (a hot path); ignored where unsupported. */
  prepare?: boolean;
}

export interface SqlClient {
  readonly kind: DatabaseKind;
  /** What to show a user: the server address or the folder, never a password. */
  readonly target: string;
  query<Row = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<Row[]>;
  /** Rows as arrays of column values (what drizzle's proxy driver wants). */
  queryArrays(text: string, params?: unknown[]): Promise<unknown[][]>;
  /**
   * The first column of the first row as its raw text bytes, unparsed and copied out of the
   * driver's buffers (so it can be handed to another thread); null for no row or a null. Where a
   * driver cannot give bytes the adapter leaves it out and textValue() reads the text instead.
   */
  queryBytes?(text: string, params?: unknown[]): Promise<Uint8Array | null>;
  /** Runs statements without parameters, several separated by `;` allowed. */
  exec(text: string): Promise<void>;
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export class PostgresClient implements SqlClient {
  readonly kind = "server" as const;

  constructor(
    readonly sql: Sql,
    readonly target: string,
  ) {}

  async query<Row>(text: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Row[]> {
    const rows = await this.sql.unsafe(text, params as never[], { prepare: options.prepare ?? false });
    return rows as unknown as Row[];
  }

  async queryArrays(text: string, params: unknown[] = []): Promise<unknown[][]> {
    const rows = await this.sql.unsafe(text, params as never[]).values();
    return rows as unknown as unknown[][];
  }

  async queryBytes(text: string, params: unknown[] = []): Promise<Uint8Array | null> {
    const rows = (await this.sql.unsafe(text, params as never[], { prepare: true }).raw()) as unknown as Array<Array<Uint8Array | null>>;
    const cell = rows[0]?.[0];
    // A copy: the driver's cell is a view of its socket buffer.
    return cell ? new Uint8Array(cell) : null;
  }

  async exec(text: string): Promise<void> {
    await this.sql.unsafe(text);
  }

  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    const subscription = await this.sql.listen(channel, onMessage);
    return () => subscription.unlisten();
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}

export class PGliteClient implements SqlClient {
  readonly kind = "embedded" as const;

  constructor(
    readonly db: PGlite,
    readonly target: string,
    private readonly onClose: () => Promise<void>,
  ) {}

  async query<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
    const result = await this.db.query<Row>(text, params);
    return result.rows;
  }

  async queryArrays(text: string, params: unknown[] = []): Promise<unknown[][]> {
    const result = await this.db.query<unknown[]>(text, params, { rowMode: "array" });
    return result.rows;
  }

  async exec(text: string): Promise<void> {
    await this.db.exec(text);
  }

  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    const unlisten = await this.db.listen(channel, onMessage);
    return () => unlisten();
  }

  close(): Promise<void> {
    return this.onClose();
  }
}

/** The first column of the first row as raw bytes where the client gives them, else as text (null for none). */
export async function textValue(client: SqlClient, text: string, params: unknown[]): Promise<Uint8Array | string | null> {
  if (client.queryBytes) return client.queryBytes(text, params);
  const rows = await client.queryArrays(text, params);
  const cell = rows[0]?.[0];
  return cell === null || cell === undefined ? null : String(cell);
}
