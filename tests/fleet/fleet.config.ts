/**
 * The fleet test's backtrack.config: the crash tests' agent (tests/recovery/fixtures.ts), whose
 * effects go to tables of the run's database through a connection of its own (DATABASE_URL), so
 * the test counts every charge any process made. Loaded by the inspectors and the workers alike.
 */
import postgres from "postgres";
import type { Journal } from "../../lib/journal/ports";
import { crashyAgent, type Sink } from "../recovery/fixtures";

const sql = postgres(process.env.DATABASE_URL ?? "", { max: 2, onnotice: () => undefined });

const sink: Sink = {
  charge: async (runId, call) => void (await sql`INSERT INTO side_charges (run_id, call) VALUES (${runId}, ${call})`),
  email: async (key) => {
    await sql`INSERT INTO side_email_calls (key) VALUES (${key})`;
    await sql`INSERT INTO side_emails (key) VALUES (${key}) ON CONFLICT (key) DO NOTHING`;
  },
  charges: async () => 0,
  emails: async () => ({ delivered: 0, calls: 0, keys: [] }),
};

const config = {
  agents: [{ name: "crashy", create: (store: Journal) => crashyAgent(store, sink) }],
};
export default config;
