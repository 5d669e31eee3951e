/**
 * Writes a refund run paused for approval of a $900 refund into the e2e database (through the
 * process that owns it), under the id given: the demo's `support` agent and tool on the config's
 * slow model (e2e/fixtures/backtrack.config.mts), so that resuming it after the approval takes
 * SLOW_RESUME_MS. `--agent NAME` records another agent name: one the server does not know, whose
 * resume fails. Run with `node --import tsx e2e/plant-paused-refund.ts <database url> <run id> [--agent NAME]`.
 */
import { Agent } from "../lib/agent/agent";
import { isPause } from "../lib/agent/pauses";
import { issueRefund } from "../lib/demo/recovery-agents";
import { toModel, type ConfigModel } from "../lib/config/config";
import { openStore } from "../lib/store/index";
import config, { SLOW_MODEL } from "./fixtures/backtrack.config.mjs";

const [url, runId, flag, agentName] = process.argv.slice(2);
if (!url || !runId || (flag !== undefined && (flag !== "--agent" || !agentName))) throw new Error("usage: plant-paused-refund.ts <database url> <run id> [--agent NAME]");
const store = await openStore({ url });
try {
  const model = toModel(SLOW_MODEL, config.models[SLOW_MODEL] as ConfigModel);
  const agent = new Agent({ name: agentName ?? "support", model, store, tools: [issueRefund], system: "You are the support agent. Refund orders as asked." });
  await agent.run(runId, "Refund $900 for order 88.").catch((error: unknown) => {
    if (!isPause(error)) throw error;
  });
  process.stdout.write(`${runId}\n`);
} finally {
  await store.close();
}
