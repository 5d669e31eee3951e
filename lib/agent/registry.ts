/**
 * The registry: agents and models by name. A run records its agent's name and its model's id in
 * run:start; whatever drives a run later without the original code at hand (recovery, the CLI's
 * approve/answer/replay, the inspector's replays) rebuilds the agent from here.
 */
import { BacktrackError } from "../journal/errors";
import type { Journal } from "../journal/ports";
import type { Agent } from "./agent";
import type { HeaderPayload } from "./payloads";
import type { Model } from "./model";
import { SAME_DECISIONS, type ScorerEntry } from "./scorers";
import type { ModelPrice } from "./pricing";

export type { ModelPrice };

export class UnknownNameError extends BacktrackError {
  constructor(
    readonly what: "agent" | "model" | "scorer",
    readonly unknownName: string,
    readonly known: string[],
  ) {
    super("not_found", `no ${what} named "${unknownName}" is registered (known: ${known.join(", ") || "none"})`);
  }
}

/** A run:start that names no agent (an imported or hand-written header): nothing can rebuild the run. */
export class MissingAgentError extends BacktrackError {
  constructor(
    readonly runId: string | undefined,
    readonly found: unknown,
  ) {
    const which = runId === undefined ? "the run's run:start" : `run:start of run "${runId}"`;
    super("missing_agent", `${which} has no "agent" field (found ${JSON.stringify(found) ?? "nothing"}): it must name a registered agent to be driven`);
  }
}

export interface AgentEntry {
  name: string;
  /** Builds the agent on a journal; `model` overrides its default model (a replay, a new model). */
  create(store: Journal, model?: Model): Agent;
}

export interface ModelEntry {
  name: string;
  description?: string;
  create(): Model;
}

export class Registry {
  private readonly agents = new Map<string, AgentEntry>();
  private readonly models = new Map<string, ModelEntry>();
  /** Every registry knows `same-decisions`; registering that name again replaces it. */
  private readonly scorers = new Map<string, ScorerEntry>([[SAME_DECISIONS.name, SAME_DECISIONS]]);
  private readonly priced = new Map<string, ModelPrice>();

  registerAgent(entry: AgentEntry): this {
    this.agents.set(entry.name, entry);
    return this;
  }

  registerModel(entry: ModelEntry): this {
    this.models.set(entry.name, entry);
    return this;
  }

  registerScorer(entry: ScorerEntry): this {
    this.scorers.set(entry.name, entry);
    return this;
  }

  scorerNames(): string[] {
    return [...this.scorers.keys()];
  }

  scorer(name: string): ScorerEntry {
    const entry = this.scorers.get(name);
    if (!entry) throw new UnknownNameError("scorer", name, this.scorerNames());
    return entry;
  }

  /** Prices a model by the id its runs record (`pricing` in backtrack.config.ts); it overrides the price table. */
  registerPrice(model: string, price: ModelPrice): this {
    this.priced.set(model, { input: price.input, output: price.output });
    return this;
  }

  /** The registered prices by model id (overrides of the kept price table). */
  prices(): Record<string, ModelPrice> {
    return Object.fromEntries(this.priced);
  }

  agentNames(): string[] {
    return [...this.agents.keys()];
  }

  modelEntries(): ModelEntry[] {
    return [...this.models.values()];
  }

  hasAgent(name: string): boolean {
    return this.agents.has(name);
  }

  agent(name: string, store: Journal, model?: Model): Agent {
    const entry = this.agents.get(name);
    if (!entry) throw new UnknownNameError("agent", name, this.agentNames());
    return entry.create(store, model);
  }

  model(name: string): Model {
    const entry = this.models.get(name);
    if (!entry) throw new UnknownNameError("model", name, [...this.models.keys()]);
    return entry.create();
  }

  /** The agent that wrote a run, with the model it recorded when that model is registered. */
  agentForRun(header: HeaderPayload, store: Journal, runId?: string): Agent {
    if (typeof header?.agent !== "string" || header.agent === "") throw new MissingAgentError(runId, header?.agent);
    const model = this.models.has(header.model) ? this.model(header.model) : undefined;
    return this.agent(header.agent, store, model);
  }
}
