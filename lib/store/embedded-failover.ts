/**
 * A client of another process's embedded database that outlives its owner. When the owner dies
 * (kill -9, a crash), the next statement opens the folder again as a new process would: it takes
 * the folder over (the dead owner's lock is stale) or joins whichever process took it first.
 * A statement the owner never received is sent again to the new one; a statement it received and
 * died on has an unknown outcome, so it fails with OwnerLostError (exit 2 on the CLI) rather than
 * run twice. The data stays consistent either way: each statement commits in PGlite or not at all.
 */
import { isBacktrackError } from "../journal/errors";
import type { OwnerLostError } from "./embedded-remote";
import type { QueryOptions, SqlClient } from "./sql-client";

export class FailoverClient implements SqlClient {
  private switching: Promise<SqlClient> | undefined;
  private closed = false;

  constructor(
    private current: SqlClient,
    /** Opens the folder again: as its owner, or through whichever process owns it now. */
    private readonly reopen: () => Promise<SqlClient>,
  ) {}

  get kind() {
    return this.current.kind;
  }

  get target() {
    return this.current.target;
  }

  query<Row = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<Row[]> {
    return this.run((client) => client.query<Row>(text, params, options));
  }

  queryArrays(text: string, params?: unknown[]): Promise<unknown[][]> {
    return this.run((client) => client.queryArrays(text, params));
  }

  exec(text: string): Promise<void> {
    return this.run((client) => client.exec(text));
  }

  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    return this.run((client) => client.listen(channel, onMessage));
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.switching ? await this.switching.catch(() => this.current) : this.current;
    await client.close();
  }

  private async run<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    const client = this.switching ? await this.switching : this.current;
    try {
      return await work(client);
    } catch (error) {
      // A statement the owner received may have run: never send it twice. The next statement takes over.
      if (!isBacktrackError(error, "database_owner_lost") || (error as OwnerLostError).reached || this.closed) throw error;
      return work(await this.replace(client));
    }
  }

  /** One takeover for every statement that failed with the same dead owner. */
  private replace(failed: SqlClient): Promise<SqlClient> {
    if (this.current !== failed) return Promise.resolve(this.current);
    this.switching ??= this.reopen().then(
      (client) => {
        this.current = client;
        this.switching = undefined;
        return client;
      },
      (error: unknown) => {
        this.switching = undefined;
        throw error;
      },
    );
    return this.switching;
  }
}
