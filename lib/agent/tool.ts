/**
 * The Tool port. Input is validated with the tool's zod schema before `execute` runs; a failed
 * validation becomes an error result the model sees, and the tool never runs.
 */
import { z } from "zod";
import type { Journal, Waker } from "../journal/ports";
import type { ToolDescription } from "./model";
import type { RunInput } from "./messages";
import type { RunResult } from "./run-result";

export interface ToolContext {
  runId: string;
  toolCallId: string;
  /** The journal name prefix of this call: turn:<t>:call:<i>. */
  callName: string;
  /** The same on every try of this call (derived from run, call and arguments): send it downstream to deduplicate. */
  idempotencyKey: string;
  journal: Journal;
  signal: AbortSignal;
  /** A durable step inside this call: runs `fn` once, journals its value, returns the recorded value on every later try. */
  step<T>(name: string, fn: () => Promise<T> | T): Promise<T>;
  /** Runs a sub-agent as a child run (id derived from this call), linked to this run, resumable with it. */
  runAgent(agent: AgentLike, input: RunInput): Promise<RunResult>;
  /**
   * Asks the user a question and pauses the run (Interrupted) until an answer is recorded
   * (`backtrack answer`); on resume the call runs again and `ask` returns the answer.
   */
  ask(question: string): Promise<string>;
  /**
   * Sleeps durably: journals the wake time and pauses the run (Sleeping) until then; a bound
   * Waker is told when to resume it. On resume the call runs again and `sleep` returns once due.
   */
  sleep(ms: number): Promise<void>;
  /** Milliseconds since the epoch on the drive's clock (the bound Waker's, else the system's). */
  now(): number;
}

/** The seed's Sleep: `await sleep(ctx, ms)` inside a tool. */
export function sleep(ctx: Pick<ToolContext, "sleep">, ms: number): Promise<void> {
  return ctx.sleep(ms);
}

/** What `ctx.runAgent` needs of an agent (Agent implements it). */
export interface AgentLike {
  readonly name: string;
  runChild(runId: string, input: RunInput, parent: ChildRunOptions): Promise<RunResult>;
}

export interface ChildRunOptions {
  parentRunId: string;
  journal: Journal;
  /** The parent's model when it must drive the whole tree (a replay). */
  inheritedModel?: import("./model").Model;
  onEvent?: (event: import("./events").AgentEvent) => void;
  signal?: AbortSignal;
  waker?: Waker;
  /** The run at the top of the tree (what a waker or a recoverer drives). */
  rootRunId?: string;
}

export interface ToolSafety {
  /**
   * Declares the tool retry-safe: when its outcome is unknown after a crash, it runs again with
   * the same `ctx.idempotencyKey` instead of halting the run. The tool must pass the key downstream.
   */
  idempotencyKey?: boolean;
}

/**
 * What running a tool may do to the world: `none` (reads only), `idempotent` (a repeat with the
 * same `ctx.idempotencyKey` changes nothing more; retry-safe on resume), `external` (anything
 * else: a charge, an email). Undeclared counts as `external`: a fork halts before it runs one.
 */
export type ToolEffects = "none" | "idempotent" | "external";

export function effectsOf(definition: Pick<AnyTool, "effects">): ToolEffects {
  return definition.effects ?? "external";
}

export interface Tool<Input = unknown, Output = unknown> {
  name: string;
  description: string;
  input: z.ZodType<Input>;
  execute(args: Input, ctx: ToolContext): Promise<Output> | Output;
  safety?: ToolSafety;
  /** What running it does to the world (default `external`); see ToolEffects. */
  effects?: ToolEffects;
  /** A human must approve the call before it runs. */
  needsApproval?: boolean | ((args: Input) => boolean);
  /** Undoes a completed call when a saga fails (see runSaga). */
  compensate?: (args: Input, result: Output, ctx: ToolContext) => Promise<void> | void;
}

// Tools are stored in heterogeneous lists; `any` keeps each tool's own input and output types at its definition.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any, any>;

export function tool<Input, Output>(definition: Tool<Input, Output>): Tool<Input, Output> {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(definition.name)) {
    // Provider APIs accept only these names; catching it here gives a clear error at definition time.
    throw new TypeError(`tool name "${definition.name}" must be 1-64 letters, digits, "_", "-" or "."`);
  }
  return definition;
}

/** Each input schema's JSON Schema as text: converting a zod schema costs about 0.1 ms, and a run
 * describes its tools at every start and every replay. Zod schemas are immutable, so the text
 * never goes stale; each description gets its own parsed copy, which its caller may change. */
const schemaTexts = new WeakMap<AnyTool["input"], string>();

export function describeTool(definition: AnyTool): ToolDescription {
  let text = schemaTexts.get(definition.input);
  if (text === undefined) {
    text = JSON.stringify(z.toJSONSchema(definition.input, { unrepresentable: "any" }));
    schemaTexts.set(definition.input, text);
  }
  return { name: definition.name, description: definition.description, inputSchema: JSON.parse(text) as Record<string, unknown> };
}
