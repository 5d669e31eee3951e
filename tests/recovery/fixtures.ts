/**
 * The crash tests' agent: a scripted model, a read-only lookup (retry-safe), a non-idempotent
 * charge with a durable step and a durable sleep (approval above $100), and an idempotent notify.
 * The input names the customer, the amount ("N dollars") and the sleep ("wait N ms"). Side effects go to a
 * Sink: tables in the run's database (an INSERT per effect), or arrays for MemStore. Imported by
 * the tests and by the child processes they kill, with relative imports only.
 */
import { z } from "zod";
import { Agent } from "../../lib/agent/agent";
import { tool } from "../../lib/agent/tool";
import type { Journal } from "../../lib/journal/ports";
import { scriptedModel, toolResults, userText } from "../../lib/agent/scripted";
import type { SqlClient } from "../../lib/store/sql-client";

export interface Sink {
  /** A non-idempotent effect: every call inserts a row. */
  charge(runId: string, call: string): Promise<void>;
  /** An idempotent effect: deduplicated downstream by key; every call is counted too. */
  email(key: string): Promise<void>;
  charges(runId: string): Promise<number>;
  emails(runId: string): Promise<{ delivered: number; calls: number; keys: string[] }>;
}

export const SINK_TABLES = `
CREATE TABLE IF NOT EXISTS side_charges (id serial PRIMARY KEY, run_id text NOT NULL, call text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE IF NOT EXISTS side_emails (key text PRIMARY KEY);
CREATE TABLE IF NOT EXISTS side_email_calls (id serial PRIMARY KEY, key text NOT NULL);`;

export async function sqlSink(client: SqlClient): Promise<Sink> {
  await client.exec(SINK_TABLES);
  return {
    charge: async (runId, call) => void (await client.query("INSERT INTO side_charges (run_id, call) VALUES ($1, $2)", [runId, call])),
    email: async (key) => {
      await client.query("INSERT INTO side_email_calls (key) VALUES ($1)", [key]);
      await client.query("INSERT INTO side_emails (key) VALUES ($1) ON CONFLICT (key) DO NOTHING", [key]);
    },
    charges: async (runId) => Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM side_charges WHERE run_id = $1", [runId]))[0]?.n ?? 0),
    emails: async (runId) => {
      const prefix = `${runId}|%`;
      const delivered = await client.query<{ n: string }>("SELECT count(*) AS n FROM side_emails WHERE key LIKE $1", [prefix]);
      const calls = await client.query<{ key: string }>("SELECT key FROM side_email_calls WHERE key LIKE $1", [prefix]);
      return { delivered: Number(delivered[0]?.n ?? 0), calls: calls.length, keys: calls.map((row) => row.key) };
    },
  };
}

export function memorySink(): Sink {
  const charges: string[] = [];
  const delivered = new Set<string>();
  const calls: string[] = [];
  return {
    charge: async (runId) => void charges.push(runId),
    email: async (key) => {
      calls.push(key);
      delivered.add(key);
    },
    charges: async (runId) => charges.filter((id) => id === runId).length,
    emails: async (runId) => {
      const mine = (key: string) => key.startsWith(`${runId}|`);
      return { delivered: [...delivered].filter(mine).length, calls: calls.filter(mine).length, keys: calls.filter(mine) };
    },
  };
}

export const CRASHY_MODEL_ID = "crashy/v1";

export function crashyModel() {
  return scriptedModel(CRASHY_MODEL_ID, (request, turn) => {
    const input = userText(request.messages);
    const customer = /customer (\w+)/.exec(input)?.[1] ?? "ada";
    const amount = Number(/(\d+) dollars/.exec(input)?.[1] ?? 42);
    const waitMs = Number(/wait (\d+) ms/.exec(input)?.[1] ?? 0);
    if (turn === 0)
      return {
        toolCalls: [
          { name: "lookup", args: { customer } },
          { name: "charge", args: { amount, waitMs } },
        ],
      };
    const results = toolResults(request.messages);
    const name = (results[0]?.result as { name?: string } | undefined)?.name;
    const charge = results[1];
    const receipt = charge?.isError ? `no charge (${JSON.stringify(charge.result)})` : (charge?.result as { receipt?: string } | undefined)?.receipt;
    if (turn === 1) return { toolCalls: [{ name: "notify", args: { text: `Charged ${name}: ${receipt}` } }] };
    const sent = (results[2]?.result as { delivered?: boolean } | undefined)?.delivered ? "sent" : "not sent";
    return { text: `Charged ${name} ${receipt}; notice ${sent}.` };
  });
}

export function crashyAgent(store: Journal, sink: Sink): Agent {
  const lookup = tool({
    name: "lookup",
    description: "Look a customer up (read-only).",
    input: z.object({ customer: z.string() }),
    safety: { idempotencyKey: true },
    execute: ({ customer }) => ({ name: customer.slice(0, 1).toUpperCase() + customer.slice(1) }),
  });
  const charge = tool({
    name: "charge",
    description: "Charge the customer's card (not idempotent); above $100 a human approves.",
    input: z.object({ amount: z.number(), waitMs: z.number() }),
    needsApproval: ({ amount }) => amount > 100,
    execute: async ({ amount, waitMs }, ctx) => {
      const quote = await ctx.step("quote", () => ({ cents: amount * 100 }));
      await ctx.sleep(waitMs);
      await sink.charge(ctx.runId, ctx.callName);
      return { receipt: `rcpt-${quote.cents}` };
    },
  });
  const notify = tool({
    name: "notify",
    description: "Send the customer a notice (deduplicated downstream by key).",
    input: z.object({ text: z.string() }),
    safety: { idempotencyKey: true },
    execute: async (_args, ctx) => {
      const key = `${ctx.runId}|${ctx.idempotencyKey}`;
      await sink.email(key);
      return { delivered: true };
    },
  });
  return new Agent({ name: "crashy", model: crashyModel(), store, tools: [lookup, charge, notify] });
}

/** The answer a crashy run gives when nothing halts it. */
export function expectedAnswer(customer: string, amount: number): string {
  return `Charged ${customer.slice(0, 1).toUpperCase()}${customer.slice(1)} rcpt-${amount * 100}; notice sent.`;
}
