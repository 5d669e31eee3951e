/** The demo's agents and models, by name: what the CLI and the inspector can drive out of the box. */
import { Registry } from "../agent/registry";
import { auditorAgent, billingAgent, plannerAgent, reporterAgent, researcherAgent } from "./agents";
import { assistantAgent } from "./chat";
import { liveAgent } from "./live";
import { demoModel } from "./models";
import { conciergeAgent, payoutsAgent, schedulerAgent, supportAgent } from "./recovery-agents";

/** What the demo's scripted models are priced at: illustrative, a small hosted model's price. */
export const DEMO_PRICE = { input: 0.15, output: 0.6 } as const;

export function demoRegistry(): Registry {
  return (
    new Registry()
      .registerModel({ name: "demo/v1", description: "the demo's scripted model", create: () => demoModel("v1") })
      .registerModel({ name: "demo/v2", description: "a changed scripted model: charges order 123 $5000", create: () => demoModel("v2") })
      // Illustrative prices (a small hosted model's, USD per million tokens) so the demo shows costs.
      .registerPrice("demo/v1", DEMO_PRICE)
      .registerPrice("demo/v2", DEMO_PRICE)
      .registerAgent({ name: "billing", create: billingAgent })
      .registerAgent({ name: "reporter", create: reporterAgent })
      .registerAgent({ name: "planner", create: plannerAgent })
      .registerAgent({ name: "researcher", create: researcherAgent })
      .registerAgent({ name: "auditor", create: auditorAgent })
      .registerAgent({ name: "support", create: supportAgent })
      .registerAgent({ name: "scheduler", create: schedulerAgent })
      .registerAgent({ name: "concierge", create: conciergeAgent })
      .registerAgent({ name: "payouts", create: (store, model) => payoutsAgent(store, model) })
      .registerAgent({ name: "assistant", create: assistantAgent })
      // `backtrack demo --live`: registered so that its run can be recovered after its process dies.
      .registerAgent({ name: "live-auditor", create: (store) => liveAgent(store) })
  );
}
