/** The demo's tools: deterministic stand-ins for a payment API, a ledger, a flight search. */
import { z } from "zod";
import { tool, type AgentLike } from "../agent/tool";

const ORDERS: Record<string, { customer: string; total: number }> = {
  "123": { customer: "Ada Lovelace", total: 500 },
  "77": { customer: "Grace Hopper", total: 120 },
};

export const chargeCard = tool({
  name: "chargeCard",
  description: "Charge the card on file for an order, in US dollars.",
  input: z.object({ orderId: z.string(), amount: z.number().positive() }),
  // Moves money: a fork halts before charging again unless told it may (lib/fork).
  effects: "external",
  execute: ({ orderId, amount }) => {
    const order = ORDERS[orderId];
    if (!order) throw new Error(`order ${orderId} not found`);
    return { charged: amount, orderId, customer: order.customer, receipt: `rcpt-${orderId}-${amount}` };
  },
});

export const buildReport = tool({
  name: "buildReport",
  effects: "none",
  description: "Build the ledger report of a month (YYYY-MM).",
  input: z.object({ month: z.string().regex(/^\d{4}-\d{2}$/) }),
  execute: async ({ month }, ctx) => {
    const entries = await ctx.step("fetch-ledger", () => Array.from({ length: 12 }, (_, index) => ({ id: `${month}-${index + 1}`, amount: 40 + ((index * 37) % 90) })));
    const total = await ctx.step("sum-ledger", () => entries.reduce((sum, entry) => sum + entry.amount, 0));
    return { month, entries: entries.length, total };
  },
});

export const searchFlights = tool({
  name: "searchFlights",
  effects: "none",
  description: "Search flights between two airports.",
  input: z.object({ from: z.string().length(3), to: z.string().length(3) }),
  execute: ({ from, to }) => ({
    flights: [
      { flight: "TP 540", from, to, departs: "08:10", price: 189 },
      { flight: "LH 1171", from, to, departs: "12:45", price: 142 },
      { flight: "FR 8362", from, to, departs: "19:30", price: 96 },
    ],
  }),
});

export const checkAccount = tool({
  name: "checkAccount",
  effects: "none",
  description: "Check one account's balance for anomalies.",
  input: z.object({ accountId: z.string() }),
  execute: ({ accountId }) => {
    const number = Number(accountId.replace(/\D/g, "")) || 0;
    return { accountId, balance: (number * 7919) % 10_000, flagged: number % 197 === 13 };
  },
});

/** research runs a researcher sub-agent: its run is a child of the calling run. */
export function researchTool(researcher: () => AgentLike) {
  return tool({
    name: "research",
    description: "Delegate a research question to the researcher agent.",
    input: z.object({ question: z.string() }),
    execute: async ({ question }, ctx) => {
      const result = await ctx.runAgent(researcher(), question);
      return { answer: result.text };
    },
  });
}
