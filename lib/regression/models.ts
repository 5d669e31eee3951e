/**
 * The models a replay may use, by name: `recorded` (the source run's own recorded outputs, whole
 * tree included: deterministic, never calls a live model), every model of the registry (the demo's
 * `demo/v1` and `demo/v2`, and what a user registers in backtrack.config.ts), or a Model object.
 */
import type { Model } from "../agent/model";
import { UnknownNameError, type Registry } from "../agent/registry";
import { replay } from "../agent/replay";
import type { Journal } from "../journal/ports";

export const RECORDED_MODEL = "recorded";

/** Names a replay accepts, `recorded` first. */
export function replayModelNames(registry?: Registry): string[] {
  return [RECORDED_MODEL, ...(registry?.modelEntries().map((entry) => entry.name) ?? [])];
}

/** Resolves a model name (or passes a Model through) for replaying `sourceRunId`. */
export async function resolveReplayModel(model: Model | string, journal: Journal, sourceRunId: string, registry?: Registry): Promise<Model> {
  if (typeof model !== "string") return model;
  if (model === RECORDED_MODEL) return replay(journal, sourceRunId);
  if (!registry) throw new UnknownNameError("model", model, [RECORDED_MODEL]);
  return registry.model(model);
}
