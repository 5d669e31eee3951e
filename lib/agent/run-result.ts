/**
 * What a drive returns. Its own module, so that the tools, the call context and the loop name it
 * without importing the Agent class (which imports them): the agent folder has no import cycle.
 */
import type { AssistantMessage, Usage } from "./messages";

/** The telemetry envelope. `usage` and `turns` count the model calls this drive made (live, not
 * replayed from the journal: those were accounted for when they ran); usage includes sub-agents'. */
export interface RunResult {
  message: AssistantMessage;
  text: string;
  usage: Usage;
  /** What those model calls cost in US dollars at the kept price table (with AgentOptions.pricing
   * on top); null when a model among them has no price — never 0 for an unknown price. */
  costUsd: number | null;
  turns: number;
  /** Wall-clock milliseconds of this drive. */
  duration: number;
  runId: string;
}
