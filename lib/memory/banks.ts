/**
 * A bank of memories: what an agent's memory component recalls from (see recall.ts). Two
 * implementations with one behaviour: the `memories` table (PGlite or a server, through the
 * journal's SqlClient) and an in-memory bank for a MemStore. `memoryBankFor(journal)` picks the one
 * that lives beside a journal, so memories and runs share a database.
 */
import { desc, eq } from "drizzle-orm";
import { stableHash } from "../journal/canonical";
import { BadInputError } from "../journal/errors";
import type { Journal } from "../journal/ports";
import { drizzleOver, type Database } from "../store/drizzle";
import { memories } from "../store/schema/regression";
import type { SqlClient } from "../store/sql-client";

export interface StoredMemory {
  id: string;
  scope: string;
  text: string;
  /** ISO 8601 */
  createdAt: string;
}

interface RememberOptions {
  /** Defaults to a hash of scope and text: remembering the same thing twice keeps one memory. */
  id?: string;
}

export interface MemoryBank {
  /** Stores a memory; an id already stored keeps its first text. */
  remember(scope: string, text: string, options?: RememberOptions): Promise<StoredMemory>;
  /** The scope's memories, newest first. */
  list(scope: string, options?: { limit?: number }): Promise<StoredMemory[]>;
  forget(id: string): Promise<boolean>;
}

const MAX_TEXT = 4000;
const DEFAULT_LIST_LIMIT = 500;

function validate(scope: unknown, text: unknown, id: unknown): void {
  if (typeof scope !== "string" || scope.length === 0 || scope.length > 200) throw new BadInputError("a memory scope must be 1 to 200 characters");
  if (typeof text !== "string" || text.trim().length === 0 || text.length > MAX_TEXT) throw new BadInputError(`a memory's text must be 1 to ${MAX_TEXT} characters`);
  if (typeof id !== "string" || id.length === 0 || id.length > 200) throw new BadInputError("a memory id must be 1 to 200 characters");
  if (`${scope}${text}${id}`.includes("\u0000")) throw new BadInputError("a memory may not contain NUL");
}

export function memoryId(scope: string, text: string): string {
  return `mem_${stableHash({ scope, text })}`;
}

export class MemMemoryBank implements MemoryBank {
  private readonly rows = new Map<string, StoredMemory>();
  private clock = 0;

  async remember(scope: string, text: string, options: RememberOptions = {}): Promise<StoredMemory> {
    const id = options.id ?? memoryId(scope, text);
    validate(scope, text, id);
    const existing = this.rows.get(id);
    if (existing) return { ...existing };
    this.clock = Math.max(this.clock + 1, Date.now());
    const row = { id, scope, text, createdAt: new Date(this.clock).toISOString() };
    this.rows.set(id, row);
    return { ...row };
  }

  async list(scope: string, options: { limit?: number } = {}): Promise<StoredMemory[]> {
    return [...this.rows.values()]
      .filter((row) => row.scope === scope)
      .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
      .slice(0, options.limit ?? DEFAULT_LIST_LIMIT)
      .map((row) => ({ ...row }));
  }

  async forget(id: string): Promise<boolean> {
    return this.rows.delete(id);
  }
}

export class SqlMemoryBank implements MemoryBank {
  private readonly db: Database;

  constructor(client: SqlClient) {
    this.db = drizzleOver(client);
  }

  async remember(scope: string, text: string, options: RememberOptions = {}): Promise<StoredMemory> {
    const id = options.id ?? memoryId(scope, text);
    validate(scope, text, id);
    await this.db.insert(memories).values({ id, scope, text }).onConflictDoNothing();
    const [row] = await this.db.select().from(memories).where(eq(memories.id, id));
    if (!row) throw new Error(`memory ${id} vanished after it was written`);
    return toMemory(row);
  }

  async list(scope: string, options: { limit?: number } = {}): Promise<StoredMemory[]> {
    const rows = await this.db
      .select()
      .from(memories)
      .where(eq(memories.scope, scope))
      .orderBy(desc(memories.createdAt), desc(memories.id))
      .limit(options.limit ?? DEFAULT_LIST_LIMIT);
    return rows.map(toMemory);
  }

  async forget(id: string): Promise<boolean> {
    const rows = await this.db.delete(memories).where(eq(memories.id, id)).returning({ id: memories.id });
    return rows.length > 0;
  }
}

function toMemory(row: typeof memories.$inferSelect): StoredMemory {
  const created = row.createdAt instanceof Date ? row.createdAt : new Date(row.createdAt);
  return { id: row.id, scope: row.scope, text: row.text, createdAt: created.toISOString() };
}

const banks = new WeakMap<Journal, MemoryBank>();

/** The memory bank beside a journal: the `memories` table of a database store, or one in-memory bank per MemStore. */
export function memoryBankFor(journal: Journal): MemoryBank {
  let bank = banks.get(journal);
  if (!bank) {
    const client = (journal as Partial<{ client: SqlClient }>).client;
    bank = client && typeof client.query === "function" ? new SqlMemoryBank(client) : new MemMemoryBank();
    banks.set(journal, bank);
  }
  return bank;
}
