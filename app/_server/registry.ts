/**
 * The server's registry of agents and models: the demo's (demo/v1, demo/v2 and the demo agents).
 * The inspector's bundle never loads backtrack.config.ts (only the CLI does), so what a replay
 * from the inspector can use is exactly this list.
 */
import "server-only";
import type { Registry } from "@/lib/agent/registry";
import { demoRegistry } from "@/lib/demo/registry";
import { replayModelNames } from "@/lib/regression/models";

const KEY = Symbol.for("backtrack.inspector.registry");
type Holder = typeof globalThis & { [KEY]?: Registry };

export function serverRegistry(): Registry {
  const holder = globalThis as Holder;
  holder[KEY] ??= demoRegistry();
  return holder[KEY];
}

/** The registry's model names a replay may pick (without `recorded`, which the dialog offers apart). */
export function replayModels(): string[] {
  return replayModelNames(serverRegistry()).slice(1);
}
