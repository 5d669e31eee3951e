/**
 * The runs list's search is indexed on both databases: pg_trgm GIN indexes on lower(run_id) and
 * input_text (drizzle/0005 and 0016), loaded as a contrib extension in PGlite. Lookups by id
 * never go through them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type PostgresStore } from "@/lib/store";
import { agentNames } from "@/lib/store/agents";
import { embeddedFolder, freshServerDatabase } from "../helpers/databases";

const kinds = [
  {
    name: "pglite",
    async open() {
      const folder = embeddedFolder();
      const store = await openStore({ url: folder.url });
      return { store, cleanup: async () => folder.remove() };
    },
  },
  {
    name: "server",
    async open() {
      const database = await freshServerDatabase();
      const store = await openStore({ url: database.url, poolSize: 1 });
      return { store, cleanup: database.drop };
    },
  },
];

describe.each(kinds)("runs search index: $name", (kind) => {
  let store: PostgresStore;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ store, cleanup } = await kind.open());
    await store.client.exec(`
      INSERT INTO runs (run_id, agent, input_text, started_at)
      SELECT 'run-' || g, 'agent-' || (g % 7), 'please audit account ' || md5(g::text), now() - g * interval '1 second'
      FROM generate_series(1, 3000) AS g;
      ANALYZE runs;`);
  });
  afterAll(async () => {
    await store.close();
    await cleanup();
  });

  it("answers a search through the trigram indexes, not a scan of every run", async () => {
    // On a table this small a scan, or a walk of the start-time index, is cheaper and the planner
    // rightly takes it; forbidding both shows that the indexes serve the store's own ILIKE search
    // statement (the planner prefers them at scale).
    await store.client.exec("SET enable_seqscan = off; SET enable_indexscan = off");
    const statement = store.runsQuery({ search: "run-123" }, 51).toSQL();
    const plan = await store.client.query<Record<string, string>>(`EXPLAIN ${statement.sql}`, statement.params);
    const text = plan.map((row) => Object.values(row)[0]).join("\n");
    expect(text).toContain("runs_run_id_search_idx");
    expect(text).toContain("runs_input_text_trgm_idx");
    expect(text).not.toMatch(/Seq Scan on runs/);
    await store.client.exec("RESET enable_seqscan; RESET enable_indexscan");
  });

  it("looks runs up by id through the primary key, never through a trigram index", async () => {
    // pg_trgm's GIN operator class also serves "=", and the planner took it for lookups of eight
    // ids or more: each then scanned the index's pending list, which every run insert and status
    // change grows (a suite's bulk reads went from 2 ms to 230 ms as it grew). Scans are forbidden
    // because on a table this small one is cheaper than any index for 64 ids.
    await store.client.exec("SET enable_seqscan = off");
    for (const count of [8, 64]) {
      const ids = Array.from({ length: count }, (_, index) => `run-${index + 449}`);
      const statement = store.summariesOf(ids).toSQL();
      const plan = await store.client.query<Record<string, string>>(`EXPLAIN ${statement.sql}`, statement.params);
      const text = plan.map((row) => Object.values(row)[0]).join("\n");
      expect(text, `${count} ids`).toMatch(/runs_pkey/);
      expect(text, `${count} ids`).not.toMatch(/trgm/);
    }
    await store.client.exec("RESET enable_seqscan");
  });

  it("pages the runs list in index order: first page, keyset page, status and agent filters never sort", async () => {
    await store.client.exec("SET enable_seqscan = off");
    const first = await store.runs({ limit: 5 });
    for (const query of [{}, { cursor: first.nextCursor ?? undefined }, { status: "running" as const }, { agent: "agent-3" }]) {
      const statement = store.runsQuery(query, 51).toSQL();
      const plan = await store.client.query<Record<string, string>>(`EXPLAIN ${statement.sql}`, statement.params);
      const text = plan.map((row) => Object.values(row)[0]).join("\n");
      expect(text, JSON.stringify(query)).toMatch(/Index Scan using runs_(started|status_started|agent_started)_idx/);
      expect(text, JSON.stringify(query)).not.toMatch(/Sort/);
    }
    await store.client.exec("RESET enable_seqscan");
  });

  it("finds runs by part of the id or of the input text, case-insensitively, and pages by keyset", async () => {
    const byId = await store.runs({ search: "RUN-123", limit: 5 });
    expect(byId.runs.map((run) => run.runId)).toEqual(["run-123", "run-1230", "run-1231", "run-1232", "run-1233"]);
    const next = await store.runs({ search: "run-123", limit: 5, cursor: byId.nextCursor ?? undefined });
    expect(next.runs.map((run) => run.runId)).toEqual(["run-1234", "run-1235", "run-1236", "run-1237", "run-1238"]);
    const hash = "c4ca4238a0b923820dcc509a6f75849b"; // md5('1')
    const byText = await store.runs({ search: hash.slice(4, 16).toUpperCase() });
    expect(byText.runs.map((run) => run.runId)).toEqual(["run-1"]);
  });
});

describe.each(kinds)("agent names: $name", (kind) => {
  it("lists each agent once, sorted, through the agent index", async () => {
    const { store, cleanup } = await kind.open();
    try {
      expect(await agentNames(store.client)).toEqual([]);
      await store.client.exec(`
        INSERT INTO runs (run_id, agent) SELECT 'r-' || g, CASE WHEN g % 5 = 0 THEN NULL ELSE 'agent-' || (g % 4) END FROM generate_series(1, 400) AS g;
        ANALYZE runs;`);
      expect(await agentNames(store.client)).toEqual(["agent-0", "agent-1", "agent-2", "agent-3"]);
      expect(await agentNames(store.client, 2)).toEqual(["agent-0", "agent-1"]);
    } finally {
      await store.close();
      await cleanup();
    }
  });
});
