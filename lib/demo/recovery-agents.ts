/**
 * The recovery demo's agents: a support agent whose refunds above $100 wait for a human, a
 * scheduler that sleeps a day before following up, a concierge that asks the user a question,
 * and a payouts agent whose bank call can be cut off mid-flight (an unknown outcome).
 */
import { z } from "zod";
import { Agent } from "../agent/agent";
import type { Model } from "../agent/model";
import { tool, sleep, type ToolContext } from "../agent/tool";
import type { Journal } from "../journal/ports";
import { addDemoScript, demoModel } from "./models";
import type { DemoScript } from "./types";
import { toolResults, userText } from "../agent/scripted";
import type { ModelRequest } from "../agent/model";

/** Refunds above this many dollars need a human's approval. */
const REFUND_APPROVAL_LIMIT = 100;

const hasTool = (request: ModelRequest, name: string) => request.tools.some((candidate) => candidate.name === name);
const lastResult = (request: ModelRequest) => toolResults(request.messages).at(-1);

const support: DemoScript = {
  matches: (request) => hasTool(request, "issueRefund"),
  reply(request, turn) {
    const input = userText(request.messages);
    const amount = Number(/\$(\d+)/.exec(input)?.[1] ?? 50);
    const orderId = /order\s*#?\s*(\w+)/i.exec(input)?.[1] ?? "77";
    if (turn === 0) return { toolCalls: [{ name: "issueRefund", args: { orderId, amount } }] };
    const last = lastResult(request);
    const result = (last?.result ?? {}) as { error?: string; refunded?: number };
    return last?.isError ? { text: `I could not refund order ${orderId}: ${result.error}.` } : { text: `Refunded $${result.refunded} for order ${orderId}.` };
  },
};

const scheduler: DemoScript = {
  matches: (request) => hasTool(request, "followUp"),
  reply(request, turn) {
    const customer = /remind (\w+)/i.exec(userText(request.messages))?.[1] ?? "the customer";
    if (turn === 0) return { toolCalls: [{ name: "followUp", args: { customer, hours: 24 } }] };
    return { text: `Followed up with ${customer} after a day.` };
  },
};

const concierge: DemoScript = {
  matches: (request) => hasTool(request, "askUser"),
  reply(request, turn) {
    if (turn === 0) return { toolCalls: [{ name: "askUser", args: { question: "Which evening works for you, Friday or Saturday?" } }] };
    const answer = (lastResult(request)?.result as { answer?: string } | undefined)?.answer ?? "no answer";
    return { text: `Booked a table for two on ${answer}.` };
  },
};

const payouts: DemoScript = {
  matches: (request) => hasTool(request, "sendPayout"),
  reply(request, turn) {
    const amount = Number(/\$(\d+)/.exec(userText(request.messages))?.[1] ?? 100);
    if (turn === 0) return { toolCalls: [{ name: "sendPayout", args: { account: "acct-9", amount } }] };
    const last = lastResult(request);
    return last?.isError ? { text: `The payout failed: ${JSON.stringify(last.result)}.` } : { text: `Paid out $${amount} to acct-9.` };
  },
};

for (const script of [support, scheduler, concierge, payouts]) addDemoScript(script);

export const issueRefund = tool({
  name: "issueRefund",
  description: `Refund an order, in US dollars. Above $${REFUND_APPROVAL_LIMIT} a human approves first.`,
  input: z.object({ orderId: z.string(), amount: z.number().positive() }),
  needsApproval: ({ amount }) => amount > REFUND_APPROVAL_LIMIT,
  execute: ({ orderId, amount }) => ({ refunded: amount, orderId, refundId: `rf-${orderId}-${amount}` }),
});

const followUp = tool({
  name: "followUp",
  description: "Wait, then send the customer a follow-up message.",
  input: z.object({ customer: z.string(), hours: z.number().positive() }),
  execute: async ({ customer, hours }, ctx) => {
    await sleep(ctx, hours * 60 * 60 * 1000);
    return { sent: `follow-up to ${customer}` };
  },
});

const askUser = tool({
  name: "askUser",
  description: "Ask the user a question and wait for the answer.",
  input: z.object({ question: z.string() }),
  execute: async ({ question }, ctx) => ({ answer: await ctx.ask(question) }),
});

/** The payment provider's API. Its transfers are not idempotent: a retry pays twice. */
export interface Bank {
  send(account: string, amount: number, ctx: ToolContext): Promise<{ transferId: string }>;
}

const demoBank: Bank = {
  send: async (account, amount) => ({ transferId: `tr-${account}-${amount}` }),
};

function sendPayout(bank: Bank) {
  return tool({
    name: "sendPayout",
    description: "Send money to an account (not idempotent).",
    input: z.object({ account: z.string(), amount: z.number().positive() }),
    execute: async ({ account, amount }, ctx) => bank.send(account, amount, ctx),
  });
}

export function supportAgent(store: Journal, model: Model = demoModel()): Agent {
  return new Agent({ name: "support", model, store, tools: [issueRefund], system: "You are the support agent. Refund orders as asked." });
}

export function schedulerAgent(store: Journal, model: Model = demoModel()): Agent {
  return new Agent({ name: "scheduler", model, store, tools: [followUp], system: "You schedule follow-ups." });
}

export function conciergeAgent(store: Journal, model: Model = demoModel()): Agent {
  return new Agent({ name: "concierge", model, store, tools: [askUser], system: "You book restaurants; ask when unsure." });
}

export function payoutsAgent(store: Journal, model: Model = demoModel(), bank: Bank = demoBank): Agent {
  return new Agent({ name: "payouts", model, store, tools: [sendPayout(bank)], system: "You send payouts." });
}
