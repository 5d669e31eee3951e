/**
 * The memory port: an optional component of an agent that composes recalled context in front of
 * the turn's own incoming messages. The loop asks it once, before model turn 0 (the turn that
 * receives the run's input), and journals what it composed as `turn:0:memctx` before the model is
 * asked. Invariants:
 * - the model saw exactly `[...composed, ...incoming]` and the system text `system ?? header.system`;
 * - a resume or a replay reads the recorded composition back, never recalls again, so a changed
 *   memory table cannot change a recorded run;
 * - `incomingCount` trailing messages are the turn's own: stripMemoryContext keeps only those.
 * An implementation that reads a table of memories is lib/memory/recall.ts (`recallMemory`).
 */
import type { Message } from "./messages";

export interface MemoryRequest {
  runId: string;
  turn: number;
  /** The turn's own incoming messages (the run's input). */
  incoming: Message[];
  /** The system text before memory touched it. */
  system?: string;
}

export interface RecalledMemory {
  id: string;
  text: string;
  /** The relevance score the recall rule gave it. */
  score: number;
}

/** The `:memctx` provenance record of a turn (kind `signal`). */
export interface MemoryContextPayload {
  type: "memctx";
  turn: number;
  /** How many of the messages the model saw are the turn's own: the trailing ones. */
  incomingCount: number;
  /** The messages memory composed in front of the turn's own, in order. */
  composed: Message[];
  /** The memories those messages carry. */
  memories: RecalledMemory[];
  /** Characters of working memory that went into the system text (0: the system text is untouched). */
  workingMemoryChars: number;
  /** The system text the model saw, when memory changed it. */
  system?: string;
  /** For a replay that re-used a recorded composition: the run it came from. */
  frozenFrom?: string;
  /** For a memory-off replay (stripMemoryContext): the run whose composed messages were dropped. */
  strippedFrom?: string;
}

/** What a memory component returns; the loop adds `type`, `turn` and `incomingCount` when it journals it. */
export type MemoryComposition = Omit<MemoryContextPayload, "type" | "turn" | "incomingCount">;

export interface AgentMemory {
  compose(request: MemoryRequest): Promise<MemoryComposition> | MemoryComposition;
}

/** The payload when it has the shape the loop and stripMemoryContext rely on; undefined otherwise. */
export function readMemoryContext(payload: unknown): MemoryContextPayload | undefined {
  if (typeof payload !== "object" || payload === null) return undefined;
  const value = payload as Partial<MemoryContextPayload>;
  if (value.type !== "memctx") return undefined;
  if (typeof value.incomingCount !== "number" || !Number.isInteger(value.incomingCount) || value.incomingCount < 1) return undefined;
  if (!Array.isArray(value.composed) || !Array.isArray(value.memories)) return undefined;
  if (typeof value.workingMemoryChars !== "number" || value.workingMemoryChars < 0) return undefined;
  if (value.system !== undefined && typeof value.system !== "string") return undefined;
  return value as MemoryContextPayload;
}
