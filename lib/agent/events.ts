/**
 * The semantic events of a run, named as in the seed. `Agent.stream` emits all of them live;
 * `replayEvents` rebuilds AssistantTurn and ToolCompleted from the journal alone (the durable
 * projection: identical before and after a crash).
 */
import type { AssistantMessage, Usage } from "./messages";

export type AgentEvent =
  | { type: "TurnStarted"; runId: string; turn: number }
  | { type: "ModelDelta"; runId: string; turn: number; text: string }
  | { type: "AssistantTurn"; runId: string; turn: number; message: AssistantMessage; usage: Usage; replayed: boolean }
  | { type: "ToolStarted"; runId: string; toolUseId: string; name: string; args: unknown }
  | { type: "ToolCompleted"; runId: string; toolUseId: string; name: string; result: unknown; isError: boolean; replayed: boolean }
  | { type: "Finished"; runId: string; message: AssistantMessage; usage: Usage };

export type DurableEvent = Extract<AgentEvent, { type: "AssistantTurn" | "ToolCompleted" }>;
