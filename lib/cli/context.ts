/** What every command shares: opening the store from --db, printing text or JSON, and exit codes. */
import type { Command } from "commander";
import { BacktrackError } from "../journal/errors";
import { openStore } from "../store/index";
import type { PostgresStore } from "../store/postgres-store";

export const EXIT_OK = 0;
export const EXIT_CHECK_FAILED = 1;
export const EXIT_BAD_INPUT = 2;

/** An error that ends the command with a given exit code and a one-line message. */
export class CliError extends BacktrackError {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_BAD_INPUT,
  ) {
    super("cli", message);
  }
}

export interface CommonOptions {
  db?: string;
  json?: boolean;
}

/** Adds --db and, for commands that print data, --json. */
export function common(command: Command, options: { json?: boolean } = { json: true }): Command {
  command.option("--db <url>", "postgres://… for a server, pglite:PATH for an embedded folder (default: DATABASE_URL, then .backtrack/)");
  if (options.json) command.option("--json", "print JSON (the library's field names)");
  return command;
}

export interface StoreUse {
  /** The command only reads: an embedded folder this process cannot write is read through a copy. */
  readOnly?: boolean;
}

export async function withStore<T>(options: CommonOptions, work: (store: PostgresStore) => Promise<T>, use: StoreUse = {}): Promise<T> {
  const store = await openStore({ url: options.db, readOnlyCopy: use.readOnly });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLine(text = ""): void {
  process.stdout.write(`${text}\n`);
}

/** A fixed-width table for terminal output. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
