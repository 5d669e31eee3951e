/**
 * The demo's own types, apart from the modules that use them, so that the run lists and the
 * scripts can name them without importing seed.ts or models.ts (which import them).
 */
import type { ModelRequest } from "../agent/model";
import type { ScriptedReply } from "../agent/scripted";
import type { Journal } from "../journal/ports";

/** One demo run: its id, what it shows, and how it is written into a journal. */
export interface DemoRun {
  runId: string;
  about: string;
  write(store: Journal): Promise<unknown>;
}

/** The demo model's versions: `v2` charges order 123 $5000 instead of $500. */
export type DemoVersion = "v1" | "v2";

/** One agent's script inside the demo model. */
export interface DemoScript {
  /** Whether this script plays the agent behind a request. */
  matches(request: ModelRequest): boolean;
  reply(request: ModelRequest, turn: number, version: DemoVersion): ScriptedReply;
}
