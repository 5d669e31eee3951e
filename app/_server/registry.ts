/**
 * The server's registry of agents and models: the demo's, plus the user's backtrack.config.ts
 * (BACKTRACK_CONFIG, which `backtrack start` sets from the folder it was started in, else a
 * backtrack.config.* in the server's folder). Loaded once per process; a config that fails to load
 * fails every request that needs the registry with its ConfigError (and the server logs it at boot).
 */
import "server-only";
import type { Registry } from "@/lib/agent/registry";
import { loadRegistry } from "@/lib/config/file";
import { demoRegistry } from "@/lib/demo/registry";
import { replayModelNames } from "@/lib/regression/models";
import { processWide } from "./process-wide";

export function serverRegistry(): Promise<Registry> {
  return processWide("registry", () => loadRegistry(demoRegistry()));
}

/** The registry's model names a replay may pick (without `recorded`, which the dialog offers apart). */
export async function replayModels(): Promise<string[]> {
  return replayModelNames(await serverRegistry()).slice(1);
}
