/** The demo agents. Each takes a journal and, optionally, another model (a replay, a new model). */
import { Agent } from "../agent/agent";
import type { Model } from "../agent/model";
import type { Journal } from "../journal/ports";
import { BILLING_SYSTEM, demoModel } from "./models";
import { buildReport, chargeCard, checkAccount, researchTool, searchFlights } from "./tools";

export function billingAgent(store: Journal, model: Model = demoModel()): Agent {
  return new Agent({ name: "billing", model, store, tools: [chargeCard], system: BILLING_SYSTEM });
}

export function reporterAgent(store: Journal, model: Model = demoModel()): Agent {
  return new Agent({ name: "reporter", model, store, tools: [buildReport], system: "You write ledger reports." });
}

export function researcherAgent(store: Journal, model: Model = demoModel()): Agent {
  return new Agent({ name: "researcher", model, store, tools: [searchFlights], system: "You research travel options and report the cheapest one." });
}

export function plannerAgent(store: Journal, model: Model = demoModel()): Agent {
  return new Agent({ name: "planner", model, store, tools: [researchTool(() => researcherAgent(store, model))], system: "You plan trips." });
}

export function auditorAgent(store: Journal, model: Model = demoModel()): Agent {
  return new Agent({ name: "auditor", model, store, tools: [checkAccount], maxTurns: 400, system: "You audit accounts." });
}
