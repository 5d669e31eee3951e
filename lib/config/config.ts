/**
 * backtrack.config.ts: what a user registers for the CLI (replay under their own models, their
 * agents' tools). Loading the file is file.ts's job (the CLI and the server share it); this module only gives
 * the shape and applies it to a registry, so that nothing here reads files or imports a bundler.
 *
 *   // backtrack.config.ts
 *   import { openai } from "@ai-sdk/openai";
 *   import { defineConfig, Agent } from "backtrack";
 *   export default defineConfig({
 *     models: { "gpt-5": openai("gpt-5") },           // an AI SDK model, through fromAiSdk
 *     agents: [{ name: "support", create: (store, model) => new Agent({ name: "support", store, model: model ?? …, tools: [...] }) }],
 *     pricing: { "my-finetune": { input: 3, output: 15 } },  // USD per million tokens, over the kept price table
 *   });
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { z } from "zod";
import { fromAiSdk } from "../agent/ai-sdk";
import type { Model } from "../agent/model";
import type { AgentEntry, ModelPrice, Registry } from "../agent/registry";
import type { ScorerEntry } from "../agent/scorers";
import { ConfigError } from "../journal/errors";

export type ConfigModel = Model | LanguageModelV3 | (() => Model | LanguageModelV3);

/** A scorer by the name `backtrack test --scorer NAME` and `bisect --scorer NAME` use: its function, or the function with a description. */
export type ConfigScorer = ScorerEntry["score"] | { description?: string; score: ScorerEntry["score"] };

export interface BacktrackConfig {
  /** Models by the name `replay --model NAME` uses; an AI SDK model is adapted with fromAiSdk. */
  models?: Record<string, ConfigModel>;
  /** Agents by the name their runs record; a name the demo also uses replaces the demo's. */
  agents?: AgentEntry[];
  /** Scorers by name; `same-decisions` is built in (a config entry of that name replaces it). */
  scorers?: Record<string, ConfigScorer>;
  /** Prices by the model id runs record, in US dollars per million tokens; they override the kept price table. */
  pricing?: Record<string, ModelPrice>;
}

export function defineConfig(config: BacktrackConfig): BacktrackConfig {
  return config;
}

const callable = (value: unknown) => typeof value === "function";
const objectOrFunction = (value: unknown) => callable(value) || (typeof value === "object" && value !== null);

const dollarsPerMillion = z.number().finite().nonnegative();

const configSchema = z.object({
  models: z.record(z.string().min(1), z.custom<ConfigModel>(objectOrFunction, "a model: a Backtrack Model, an AI SDK model or a function returning one")).optional(),
  agents: z.array(z.object({ name: z.string().min(1), create: z.custom<AgentEntry["create"]>(callable, "create(store, model) must be a function") }).loose()).optional(),
  scorers: z
    .record(
      z.string().min(1),
      z.union([
        z.custom<ScorerEntry["score"]>(callable, "a scorer: a function (diff) => boolean | { pass }"),
        z.object({ description: z.string().optional(), score: z.custom<ScorerEntry["score"]>(callable, "score(diff) must be a function") }),
      ]),
    )
    .optional(),
  pricing: z.record(z.string().trim().min(1), z.strictObject({ input: dollarsPerMillion, output: dollarsPerMillion })).optional(),
});

function isBacktrackModel(value: unknown): value is Model {
  return typeof value === "object" && value !== null && typeof (value as Model).stream === "function" && typeof (value as Model).id === "string";
}

function isAiSdkModel(value: unknown): value is LanguageModelV3 {
  return typeof value === "object" && value !== null && typeof (value as LanguageModelV3).doStream === "function";
}

/** A Backtrack Model from a config entry; the registered name becomes its id, so runs record it. */
export function toModel(name: string, value: ConfigModel): Model {
  const made = typeof value === "function" ? value() : value;
  if (isBacktrackModel(made)) return made;
  if (isAiSdkModel(made)) return fromAiSdk(made, { id: name });
  throw new ConfigError(`model "${name}" in the config is neither a Backtrack Model (id, stream) nor an AI SDK model (doStream)`);
}

/** Validates a loaded config (`where`: the file, for messages) and registers its models, agents and prices. */
export function applyConfig(registry: Registry, loaded: unknown, where = "backtrack.config"): Registry {
  const parsed = configSchema.safeParse(loaded);
  if (!parsed.success) {
    throw new ConfigError(`${where}: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ")}`);
  }
  for (const [name, value] of Object.entries(parsed.data.models ?? {})) {
    // Checked now, so that a broken entry fails at load time and not in the middle of a replay.
    toModel(name, value);
    registry.registerModel({ name, description: "from the config", create: () => toModel(name, value) });
  }
  for (const agent of parsed.data.agents ?? []) registry.registerAgent(agent as AgentEntry);
  for (const [name, value] of Object.entries(parsed.data.scorers ?? {})) {
    registry.registerScorer(
      typeof value === "function" ? { name, description: "from the config", score: value } : { name, description: value.description ?? "from the config", score: value.score },
    );
  }
  for (const [model, price] of Object.entries(parsed.data.pricing ?? {})) registry.registerPrice(model, price);
  return registry;
}
