/**
 * The agent: a model, tools and a journal. `run(runId, input)` drives the loop (model turn, tool
 * calls, repeat until the model answers without tools). Every step is journaled first, so calling
 * `run` again with the same id resumes: recorded model outputs and tool results are returned, not
 * recomputed.
 */
import type { Journal, Waker } from "../journal/ports";
import type { JournalRecord } from "../journal/types";
import type { AgentEvent } from "./events";
import { Drive } from "./loop";
import type { AgentMemory } from "./memory";
import type { AssistantMessage, RunInput } from "./messages";
import type { Model } from "./model";
import type { ModelPrice } from "./pricing";
import type { RunResult } from "./run-result";
import type { AgentLike, AnyTool, ChildRunOptions } from "./tool";

export type { RunResult } from "./run-result";

export interface AgentOptions {
  /** Shown in run lists and recorded in run:start. */
  name?: string;
  model: Model;
  store: Journal;
  tools?: AnyTool[];
  system?: string;
  /** A run that needs more model turns than this fails with MaxTurnsError. Default 50. */
  maxTurns?: number;
  /** Composes recalled context in front of the run's input, journaled as turn:0:memctx (see memory.ts). */
  memory?: AgentMemory;
  /** Prices by model id (USD per million tokens) over the kept price table, for RunResult.costUsd. */
  pricing?: Record<string, ModelPrice>;
}

export interface RunOptions {
  /** Drive this run with another model (a replay). */
  model?: Model;
  /** Write this run to another journal. */
  journal?: Journal;
  /** Records `replayOf` in run:start. */
  replayOf?: string;
  /** The run's whole journal, when the caller has just created the run: the drive reads no history. */
  history?: readonly JournalRecord[];
  onEvent?: (event: AgentEvent) => void;
  /** Cancels the drive (a lost lease): it stops before its next durable write. */
  signal?: AbortSignal;
  /** Told about every sleep the run reaches (see withWaker); its clock measures them. */
  waker?: Waker;
}

export class Agent implements AgentLike {
  readonly name: string;
  readonly model: Model;
  readonly store: Journal;
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly system: string | undefined;
  readonly maxTurns: number;
  readonly memory: AgentMemory | undefined;
  readonly pricing: Record<string, ModelPrice> | undefined;

  constructor(options: AgentOptions) {
    this.name = options.name ?? "agent";
    this.model = options.model;
    this.store = options.store;
    this.system = options.system;
    this.maxTurns = options.maxTurns ?? 50;
    this.memory = options.memory;
    this.pricing = options.pricing;
    const tools = new Map<string, AnyTool>();
    for (const definition of options.tools ?? []) {
      if (tools.has(definition.name)) throw new TypeError(`two tools are named "${definition.name}"`);
      tools.set(definition.name, definition);
    }
    this.tools = tools;
  }

  /** Runs (or resumes) a run and returns its final message. `input` may be omitted to resume. */
  async run(runId: string, input?: RunInput, options: RunOptions = {}): Promise<AssistantMessage> {
    return (await this.runResult(runId, input, options)).message;
  }

  async runResult(runId: string, input?: RunInput, options: RunOptions = {}): Promise<RunResult> {
    return new Drive(this, runId, options).run(input);
  }

  /**
   * Runs (or resumes) a run as a saga: when a tool's execute throws, the completed calls whose
   * tools have `compensate` are undone in reverse order, each at most once, and the run ends
   * with SagaAbortedError. A resume of a saga run stays a saga (run:start records it).
   */
  async runSaga(runId: string, input?: RunInput, options: RunOptions = {}): Promise<AssistantMessage> {
    return (await this.runSagaResult(runId, input, options)).message;
  }

  async runSagaResult(runId: string, input?: RunInput, options: RunOptions = {}): Promise<RunResult> {
    return new Drive(this, runId, { ...options, saga: true }).run(input);
  }

  /** Runs the loop and yields its events as they happen; ends by throwing a pause or a fault. */
  async *stream(runId: string, input?: RunInput, options: RunOptions = {}): AsyncGenerator<AgentEvent, RunResult> {
    const queue: AgentEvent[] = [];
    let wake: (() => void) | undefined;
    let settled: { result?: RunResult; error?: unknown } | undefined;
    const done = this.runResult(runId, input, {
      ...options,
      onEvent: (event) => {
        options.onEvent?.(event);
        queue.push(event);
        wake?.();
      },
    }).then(
      (result) => {
        settled = { result };
        wake?.();
      },
      (error: unknown) => {
        settled = { error };
        wake?.();
      },
    );
    for (;;) {
      const event = queue.shift();
      if (event) {
        yield event;
        continue;
      }
      if (settled) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    await done;
    if ("error" in settled) throw settled.error;
    return settled.result as RunResult;
  }

  /** Used by ToolContext.runAgent: a child run on the parent's journal. */
  runChild(runId: string, input: RunInput, parent: ChildRunOptions): Promise<RunResult> {
    return new Drive(this, runId, {
      journal: parent.journal,
      model: parent.inheritedModel,
      onEvent: parent.onEvent,
      parentRunId: parent.parentRunId,
      signal: parent.signal,
      waker: parent.waker,
      rootRunId: parent.rootRunId,
    }).run(input);
  }
}
