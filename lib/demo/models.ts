/**
 * The demo models `demo/v1` and `demo/v2`: scripted models that act on whatever demo agent
 * calls them, recognised by the tools in the request. v2 differs from v1 where a regression demo
 * needs it: it charges order 123 $5000 instead of $500, and words its answers differently.
 */
import type { ModelRequest } from "../agent/model";
import { chatScript } from "./chat-script";
import { scriptedModel, toolResults, userText, type ScriptedOptions } from "../agent/scripted";
import type { DemoScript, DemoVersion } from "./types";

/** The billing agent's system prompt (agents.ts): the playground's edits are measured against it. */
export const BILLING_SYSTEM = "You are the billing agent. Charge orders as asked.";

const hasTool = (request: ModelRequest, name: string) => request.tools.some((candidate) => candidate.name === name);

/**
 * The charge decision when it is sampled (a playground try: `seed` set). A real model given the
 * same prompt twice does not always decide alike; the demo's does not either, so that its
 * playground shows a split. The recorded prompt keeps to the run's decision but one try in five
 * charges $5000; an edited system prompt makes one try in three ask first instead of charging,
 * and one in five charge $5000. Deterministic in (system prompt, seed): a try can be run again.
 */
function sampledCharge(request: ModelRequest, orderId: string, amount: number) {
  const roll = (hashText(request.system ?? "") + (request.seed ?? 0) * 7) % 15;
  const edited = request.system !== BILLING_SYSTEM;
  if (edited && roll % 3 === 0) return { text: `Before I charge order ${orderId}: shall I charge $${amount}?` };
  if (roll % 5 === 1) return { toolCalls: [{ name: "chargeCard", args: { orderId, amount: amount * 10 } }] };
  return { toolCalls: [{ name: "chargeCard", args: { orderId, amount } }] };
}

function hashText(text: string): number {
  let hash = 0;
  for (let index = 0; index < text.length; index += 1) hash = (hash * 31 + text.charCodeAt(index)) >>> 0;
  return hash;
}

const billing: DemoScript = {
  matches: (request) => hasTool(request, "chargeCard"),
  reply(request, turn, version) {
    const orderId = /order\s*#?\s*(\w+)/i.exec(userText(request.messages))?.[1] ?? "123";
    const amount = version === "v2" ? 5000 : 500;
    if (turn === 0) return request.seed === undefined ? { toolCalls: [{ name: "chargeCard", args: { orderId, amount } }] } : sampledCharge(request, orderId, amount);
    const last = toolResults(request.messages).at(-1);
    const result = (last?.result ?? {}) as { error?: string; charged?: number; receipt?: string };
    if (last?.isError) return { text: `I could not charge order ${orderId}: ${result.error ?? "the payment failed"}.` };
    return version === "v2"
      ? { text: `Done: order ${orderId} charged ${result.charged} USD.` }
      : { text: `Charged $${result.charged}.00 for order ${orderId} (receipt ${result.receipt}).` };
  },
};

const reporter: DemoScript = {
  matches: (request) => hasTool(request, "buildReport"),
  reply(request, turn) {
    if (turn === 0) return { toolCalls: [{ name: "buildReport", args: { month: "2026-10" } }] };
    const result = (toolResults(request.messages).at(-1)?.result ?? {}) as { entries?: number; total?: number };
    return { text: `The 2026-10 ledger has ${result.entries} entries totalling $${result.total}.` };
  },
};

const planner: DemoScript = {
  matches: (request) => hasTool(request, "research"),
  reply(request, turn) {
    if (turn === 0) return { toolCalls: [{ name: "research", args: { question: "Cheapest flight from LIS to BER on Friday?" } }] };
    const result = (toolResults(request.messages).at(-1)?.result ?? {}) as { answer?: string };
    return { text: `Plan: ${result.answer ?? "no flight found"} Then a train to the hotel.` };
  },
};

const researcher: DemoScript = {
  matches: (request) => hasTool(request, "searchFlights"),
  reply(request, turn) {
    if (turn === 0) return { toolCalls: [{ name: "searchFlights", args: { from: "LIS", to: "BER" } }] };
    const result = (toolResults(request.messages).at(-1)?.result ?? {}) as { flights?: Array<{ flight: string; price: number; departs: string }> };
    const cheapest = [...(result.flights ?? [])].sort((a, b) => a.price - b.price)[0];
    return { text: cheapest ? `Cheapest: ${cheapest.flight} at ${cheapest.departs} for €${cheapest.price}.` : "No flights found." };
  },
};

const auditor: DemoScript = {
  matches: (request) => hasTool(request, "checkAccount"),
  reply(request, turn) {
    const accounts = Number(/(\d+)\s+accounts/.exec(userText(request.messages))?.[1] ?? 600);
    const perTurn = 2;
    if (turn * perTurn < accounts) {
      const ids = Array.from({ length: Math.min(perTurn, accounts - turn * perTurn) }, (_, index) => turn * perTurn + index);
      return { toolCalls: ids.map((id) => ({ name: "checkAccount", args: { accountId: `acct-${id}` } })) };
    }
    const flagged = toolResults(request.messages).filter((entry) => (entry.result as { flagged?: boolean } | null)?.flagged).length;
    return { text: `Audited ${accounts} accounts; ${flagged} flagged for review.` };
  },
};

const fallback: DemoScript = {
  matches: () => true,
  reply: (request) => ({ text: `You said: ${userText(request.messages)}` }),
};

/** Scripts in the order they are tried; other modules add theirs with addDemoScript. */
const scripts: DemoScript[] = [billing, reporter, planner, researcher, auditor, chatScript];

export function addDemoScript(script: DemoScript): void {
  if (!scripts.includes(script)) scripts.unshift(script);
}

export function demoModel(version: DemoVersion = "v1", options: ScriptedOptions = {}) {
  return scriptedModel(`demo/${version}`, (request, turn) => (scripts.find((script) => script.matches(request)) ?? fallback).reply(request, turn, version), options);
}
