/**
 * One drive of a run through the agent loop. Journal rules it keeps:
 * - run:start (the input) is the first record; a resume reads the input back from it;
 * - a model turn is journaled before its tool calls run; on resume it is replayed, never re-asked;
 * - an `attempt` record is written before a tool executes; a resume that finds an attempt without
 *   a result halts (ResumeHalt) unless the tool is idempotent or read-only, or the call stopped at a durable
 *   pause of its own (resume-rules.ts);
 * - a cancelled drive (its AbortSignal fired: a lost lease) writes nothing more, and a tool cut
 *   off by the cancellation gets no result: its outcome is unknown, as after a crash;
 * - run:complete is written once, at the terminal answer.
 */
import { canonicalJson, stableHash } from "../journal/canonical";
import type { Journal, Waker } from "../journal/ports";
import {
  approvalName,
  attemptName,
  callName,
  memoryContextName,
  resolutionName,
  resultName,
  retryName,
  RUN_COMPLETE,
  RUN_START,
  turnName,
  userMessageName,
} from "../journal/names";
import type { JournalRecord, RecordKind } from "../journal/types";
import { callContext, type CallHost } from "./call-context";
import { InputMismatchError, MaxTurnsError } from "./errors";
import type { AgentEvent } from "./events";
import {
  addUsage,
  inputMessages,
  type AssistantMessage,
  textOf,
  toolCallsOf,
  ZERO_USAGE,
  type Message,
  type RunInput,
  type ToolCallPart,
  type ToolResultPart,
  type Usage,
} from "./messages";
import { readMemoryContext, type AgentMemory, type MemoryContextPayload } from "./memory";
import { collect, type Model } from "./model";
import type { ApprovalPayload, AttemptPayload, HeaderPayload, ModelPayload, ResolutionPayload, ToolResultPayload, ValuePayload } from "./payloads";
import { ForkEffectHalt, isPause, PendingApproval, ResumeHalt, type PauseSignal } from "./pauses";
import { openResolution, stoppedAtPause } from "./resume-rules";
import { rollback, SAGA_ABORT, SagaAbortedError, SagaTrip, type SagaHost } from "./saga";
import { priceTable } from "./price-catalog";
import { costOf, priceOf, type ModelPrice } from "./pricing";
import type { RunResult } from "./run-result";
import { describeTool, effectsOf, type AnyTool } from "./tool";

/** What a drive reads of its agent; the Agent class has it (a structural type, so the loop does not import agent.ts). */
interface DrivenAgent {
  readonly name: string;
  readonly model: Model;
  readonly store: Journal;
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly system: string | undefined;
  readonly maxTurns: number;
  readonly memory: AgentMemory | undefined;
  readonly pricing: Record<string, ModelPrice> | undefined;
}

interface DriveOptions {
  model?: Model;
  journal?: Journal;
  replayOf?: string;
  history?: readonly JournalRecord[];
  parentRunId?: string;
  onEvent?: (event: AgentEvent) => void;
  signal?: AbortSignal;
  waker?: Waker;
  rootRunId?: string;
  /** Start the run as a saga (recorded in run:start; a resume follows the record). */
  saga?: boolean;
}

export class Drive implements SagaHost {
  readonly journal: Journal;
  readonly model: Model;
  readonly emit: (event: AgentEvent) => void;
  readonly signal: AbortSignal;
  readonly waker: Waker | undefined;
  readonly rootRunId: string;
  private recorded = new Map<string, JournalRecord>();
  private usage: Usage = ZERO_USAGE;
  /** What this drive's live model calls cost (sub-agents' included); null once one had no price. */
  private cost: number | null = 0;
  private prices: Record<string, ModelPrice> | undefined;
  private liveTurns = 0;
  private saga = false;
  /** A fork without `allowEffects`: its external tools halt before they run (ForkEffectHalt). */
  private holdEffects = false;
  /** The run idempotency keys are derived from: this one, or for a fork the first run of its chain (HeaderPayload.idempotencyRunId). */
  keyRunId: string;

  constructor(
    private readonly agent: DrivenAgent,
    readonly runId: string,
    private readonly options: DriveOptions,
  ) {
    this.journal = options.journal ?? agent.store;
    this.model = options.model ?? agent.model;
    this.emit = options.onEvent ?? (() => undefined);
    this.signal = options.signal ?? new AbortController().signal;
    this.waker = options.waker;
    this.rootRunId = options.rootRunId ?? runId;
    this.keyRunId = runId;
  }

  get tools(): ReadonlyMap<string, AnyTool> {
    return this.agent.tools;
  }

  async run(input: RunInput | undefined): Promise<RunResult> {
    const started = Date.now();
    try {
      const message = await this.loop(input);
      return { message, text: textOf(message), usage: this.usage, costUsd: this.cost, turns: this.liveTurns, duration: Date.now() - started, runId: this.runId };
    } catch (error) {
      await this.report(error);
      throw error;
    }
  }

  /** Writes the run's status for a drive that ended without an answer. */
  private async report(error: unknown): Promise<void> {
    // Cancelled (a lost lease): whoever drives the run now reports its status.
    if (this.signal.aborted) return;
    if (isPause(error)) {
      // A pause inside a sub-agent pauses every run up the tree; the state names the run that waits.
      await this.journal.setStatus(this.runId, { status: "paused", pause: error.state() });
    } else if (error instanceof SagaAbortedError) {
      // Rolled back: run:complete is written (nothing is left to do); the summary keeps why.
      await this.journal.setStatus(this.runId, { status: "complete", error: error.message }).catch(() => undefined);
    } else {
      const message = error instanceof Error ? error.message : String(error);
      await this.journal.setStatus(this.runId, { status: "failed", error: message }).catch(() => undefined);
    }
  }

  private async loop(input: RunInput | undefined): Promise<AssistantMessage> {
    for (const record of this.options.history ?? (await this.journal.history(this.runId))) this.recorded.set(record.name, record);
    const header = await this.start(input);
    this.saga = header.saga === true;
    this.holdEffects = header.forkedFrom !== undefined && header.allowEffects !== true;
    this.keyRunId = header.idempotencyRunId ?? header.forkedFrom?.runId ?? this.runId;
    if (this.saga && this.recorded.has(SAGA_ABORT)) return rollback(this, { reason: "resumed after a saga failure" });
    try {
      return await this.turns(header);
    } catch (error) {
      if (this.saga && (error instanceof SagaTrip || error instanceof MaxTurnsError)) {
        return rollback(this, { reason: error.message, call: error instanceof SagaTrip ? error.call : undefined });
      }
      throw error;
    }
  }

  private async turns(header: HeaderPayload): Promise<AssistantMessage> {
    const memory = await this.memoryContext(header);
    const messages: Message[] = [...(memory?.composed ?? []), ...inputMessages(header.input)];
    const system = memory?.system ?? header.system;
    const tools = [...this.agent.tools.values()].map(describeTool);
    for (let turn = 0; ; turn += 1) {
      if (turn >= this.agent.maxTurns) throw new MaxTurnsError(this.runId, this.agent.maxTurns);
      this.emit({ type: "TurnStarted", runId: this.runId, turn });
      // A user message a fork inserted before this turn (see lib/fork).
      const inserted = this.recorded.get(userMessageName(turn))?.payload as { text?: unknown } | undefined;
      if (typeof inserted?.text === "string") messages.push({ role: "user", content: inserted.text });
      const model = await this.modelTurn(turn, { system, messages, tools, signal: this.signal });
      messages.push(model.message);
      const calls = toolCallsOf(model.message);
      if (calls.length === 0) {
        await this.once(RUN_COMPLETE, "value", (): ValuePayload => ({ value: { text: textOf(model.message), turn } }));
        this.emit({ type: "Finished", runId: this.runId, message: model.message, usage: this.usage });
        return model.message;
      }
      const results: ToolResultPart[] = [];
      for (const [index, call] of calls.entries()) results.push(await this.toolCall(turn, index, call));
      messages.push({ role: "tool", content: results });
    }
  }

  private async start(input: RunInput | undefined): Promise<HeaderPayload> {
    const existing = this.recorded.get(RUN_START);
    if (existing) {
      const header = existing.payload as HeaderPayload;
      if (input !== undefined && canonicalJson(inputMessages(input)) !== canonicalJson(inputMessages(header.input))) {
        throw new InputMismatchError(this.runId);
      }
      return header;
    }
    if (input === undefined) throw new InputMismatchError(this.runId);
    this.signal.throwIfAborted();
    const header: HeaderPayload = {
      input,
      agent: this.agent.name,
      model: this.model.id,
      tools: [...this.agent.tools.keys()],
      ...(this.agent.system === undefined ? {} : { system: this.agent.system }),
      ...(this.options.parentRunId === undefined ? {} : { parentRunId: this.options.parentRunId }),
      ...(this.options.replayOf === undefined ? {} : { replayOf: this.options.replayOf }),
      ...(this.options.saga ? { saga: true } : {}),
    };
    return (await this.once(RUN_START, "header", () => header)) as HeaderPayload;
  }

  /** Turn 0's memory composition: the recorded one (a resume never recalls again), or the agent memory's, journaled before the model is asked. */
  private async memoryContext(header: HeaderPayload): Promise<MemoryContextPayload | undefined> {
    const name = memoryContextName(0);
    const recorded = this.recorded.get(name);
    if (recorded) return readMemoryContext(recorded.payload);
    const memory = this.agent.memory;
    if (!memory) return undefined;
    const incoming = inputMessages(header.input);
    const payload = await this.once<MemoryContextPayload>(name, "signal", async () => {
      const composition = await memory.compose({ runId: this.runId, turn: 0, incoming, ...(header.system === undefined ? {} : { system: header.system }) });
      // Set here, not by the component: stripMemoryContext relies on them.
      const fixed = { type: "memctx" as const, turn: 0, incomingCount: incoming.length };
      return Object.assign({ ...fixed }, composition, fixed);
    });
    return readMemoryContext(payload);
  }

  /** The recorded payload under `name`, or `make()` appended (the first writer's value if another wins). */
  async once<P>(name: string, kind: RecordKind, make: () => Promise<P> | P): Promise<P> {
    const existing = this.recorded.get(name);
    if (existing) return existing.payload as P;
    const { record } = await this.journal.append({ runId: this.runId, name, kind, payload: await make() });
    this.recorded.set(record.name, record);
    return record.payload as P;
  }

  async append(name: string, kind: RecordKind, payload: unknown): Promise<{ created: boolean }> {
    const { created, record } = await this.journal.append({ runId: this.runId, name, kind, payload });
    this.recorded.set(record.name, record);
    return { created };
  }

  async lookup(name: string): Promise<JournalRecord | undefined> {
    const record = this.recorded.get(name) ?? (await this.journal.record(this.runId, name));
    if (record) this.recorded.set(name, record);
    return record;
  }

  has(name: string): boolean {
    return this.recorded.has(name);
  }

  records(): JournalRecord[] {
    return [...this.recorded.values()];
  }

  addUsage(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
  }

  addCost(cost: number | null): void {
    this.cost = this.cost === null || cost === null ? null : this.cost + cost;
  }

  now(): number {
    return this.waker?.now() ?? Date.now();
  }

  private async modelTurn(turn: number, request: Parameters<Model["stream"]>[0]): Promise<ModelPayload> {
    const name = turnName(turn);
    const existing = this.recorded.get(name);
    if (existing) {
      const payload = existing.payload as ModelPayload;
      this.emit({ type: "AssistantTurn", runId: this.runId, turn, message: payload.message, usage: payload.usage, replayed: true });
      return payload;
    }
    this.signal.throwIfAborted();
    const started = Date.now();
    const { message, usage } = await collect(this.model, request, (text) => this.emit({ type: "ModelDelta", runId: this.runId, turn, text }));
    this.signal.throwIfAborted();
    const payload = await this.once<ModelPayload>(name, "model", () => ({
      message,
      usage,
      model: this.model.id,
      durationMs: Date.now() - started,
      startedAt: new Date(started).toISOString(),
    }));
    this.liveTurns += 1;
    this.usage = addUsage(this.usage, usage);
    this.prices ??= priceTable(this.agent.pricing).prices;
    this.addCost(costOf(priceOf(this.prices, this.model.id), usage));
    this.emit({ type: "AssistantTurn", runId: this.runId, turn, message: payload.message, usage: payload.usage, replayed: false });
    return payload;
  }

  private async toolCall(turn: number, index: number, call: ToolCallPart): Promise<ToolResultPart> {
    const name = callName(turn, index);
    const recorded = this.recorded.get(resultName(name));
    if (recorded) {
      const payload = recorded.payload as ToolResultPayload;
      this.emit({ type: "ToolCompleted", runId: this.runId, toolUseId: call.toolCallId, name: call.toolName, result: payload.result, isError: payload.isError, replayed: true });
      // A saga that failed here and was cut off before it recorded its abort: the same failure again.
      if (this.saga && payload.threw) throw new SagaTrip(`${call.toolName} failed: ${errorText(payload.result)}`, name);
      return resultPart(call, payload.result, payload.isError);
    }
    this.emit({ type: "ToolStarted", runId: this.runId, toolUseId: call.toolCallId, name: call.toolName, args: call.args });
    const definition = this.agent.tools.get(call.toolName);
    if (!definition) return this.finishCall(name, call, { result: { error: `unknown tool "${call.toolName}"` }, isError: true });
    const parsed = definition.input.safeParse(call.args);
    if (!parsed.success) {
      return this.finishCall(name, call, { result: { error: `invalid input for ${call.toolName}: ${parsed.error.message}` }, isError: true });
    }
    const args: unknown = parsed.data;
    const approval = await this.approval(name, definition, call, args);
    if (approval && !approval.approved) {
      return this.finishCall(name, call, { result: { error: `denied by ${approval.by}${approval.reason ? `: ${approval.reason}` : ""}` }, isError: true });
    }
    const idempotencyKey = stableHash({ runId: this.keyRunId, call: name, tool: call.toolName, args });
    // A tool that only reads (effects "none") cannot repeat a side effect: running it again is safe.
    const retrySafe = definition.safety?.idempotencyKey === true || definition.effects === "idempotent" || definition.effects === "none";
    if (this.holdEffects && !this.recorded.has(attemptName(name)) && effectsOf(definition) === "external") {
      const held = await this.forkEffect(name, call, args);
      if (held) return held;
    }
    if (this.recorded.has(attemptName(name))) {
      if (!retrySafe && !stoppedAtPause(this.recorded.values(), name)) {
        const { n, resolution } = openResolution(this.recorded, name);
        if (!resolution) throw new ResumeHalt(this.runId, attemptName(name), call.toolName, args);
        if (resolution.outcome === "succeeded") return this.finishCall(name, call, { result: resolution.result ?? null, isError: false, args });
        if (resolution.outcome === "failed") {
          const error = `${call.toolName} did not complete (resolved by ${resolution.by}${resolution.reason ? `: ${resolution.reason}` : ""})`;
          return this.finishCall(name, call, { result: { error }, isError: true, args });
        }
        // Retry: the marker first, so that this run being cut off too is an unknown outcome again.
        const { created } = await this.append(retryName(name, n), "signal", { type: "retry", resolution: n });
        if (!created) throw new ResumeHalt(this.runId, attemptName(name), call.toolName, args);
      }
    } else {
      this.signal.throwIfAborted();
      const attempt: AttemptPayload = { toolCallId: call.toolCallId, toolName: call.toolName, args, idempotencyKey };
      const { created } = await this.append(attemptName(name), "attempt", attempt);
      // Another driver attempted this call at the same time: its outcome is unknown to us.
      if (!created && !retrySafe) throw new ResumeHalt(this.runId, attemptName(name), call.toolName, args);
    }
    const childRunIds: string[] = [];
    const started = Date.now();
    let result: unknown;
    let threw = false;
    try {
      this.signal.throwIfAborted();
      result = await definition.execute(args, callContext(this, { name, toolCallId: call.toolCallId, idempotencyKey, childRunIds, toolName: call.toolName, args, retrySafe }));
    } catch (error) {
      if (isPause(error)) throw error;
      // Cut off by a cancellation: whether it took effect is unknown, so no result is recorded.
      if (this.signal.aborted) throw error;
      result = { error: error instanceof Error ? error.message : String(error) };
      threw = true;
    }
    const part = await this.finishCall(name, call, { result, isError: threw, durationMs: Date.now() - started, startedAt: started, args, childRunIds, threw });
    if (this.saga && threw) throw new SagaTrip(`${call.toolName} failed: ${errorText(result)}`, name);
    return part;
  }

  /**
   * A fork's external call that has not run: a person's resolution 1 decides. None yet: halt.
   * "retry" (Allow) writes retry marker 1 before the attempt, so that a cut-off run of it is an
   * unknown outcome waiting for resolution 2, as after any halt (resume-rules.ts).
   */
  private async forkEffect(name: string, call: ToolCallPart, args: unknown): Promise<ToolResultPart | undefined> {
    const resolution = this.recorded.get(resolutionName(name, 1))?.payload as ResolutionPayload | undefined;
    if (!resolution) throw new ForkEffectHalt(this.runId, attemptName(name), call.toolName, args);
    if (resolution.outcome === "succeeded") return this.finishCall(name, call, { result: resolution.result ?? null, isError: false, args });
    if (resolution.outcome === "failed") {
      const error = `${call.toolName} was not run in this fork (failed by ${resolution.by}${resolution.reason ? `: ${resolution.reason}` : ""})`;
      return this.finishCall(name, call, { result: { error }, isError: true, args });
    }
    await this.append(retryName(name, 1), "signal", { type: "retry", resolution: 1 });
    return undefined;
  }

  private async approval(name: string, definition: AnyTool, call: ToolCallPart, args: unknown): Promise<ApprovalPayload | undefined> {
    const needed = typeof definition.needsApproval === "function" ? definition.needsApproval(args) : definition.needsApproval === true;
    if (!needed) return undefined;
    const record = await this.lookup(approvalName(name));
    if (!record) throw new PendingApproval(this.runId, approvalName(name), call.toolName, args, call.toolCallId);
    return record.payload as ApprovalPayload;
  }

  /** Records how the call ended (the first writer's record wins) and tells the listeners. */
  private async finishCall(name: string, call: ToolCallPart, outcome: CallOutcome): Promise<ToolResultPart> {
    const { result, isError, durationMs = 0, startedAt, args = call.args, childRunIds = [], threw = false } = outcome;
    const payload = await this.once<ToolResultPayload>(resultName(name), "tool_result", () => ({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      args,
      result: result === undefined ? null : result,
      isError,
      durationMs,
      ...(startedAt === undefined ? {} : { startedAt: new Date(startedAt).toISOString() }),
      ...(threw ? { threw: true } : {}),
      ...(childRunIds.length > 0 ? { childRunIds } : {}),
    }));
    this.emit({ type: "ToolCompleted", runId: this.runId, toolUseId: call.toolCallId, name: call.toolName, result: payload.result, isError: payload.isError, replayed: false });
    return resultPart(call, payload.result, payload.isError);
  }
}

/** How a tool call ended, as its tool_result record says it. */
interface CallOutcome {
  result: unknown;
  isError: boolean;
  /** How long the tool ran; 0 (the default) when it did not run (refused, denied, resolved by a person). */
  durationMs?: number;
  /** When the tool started (epoch ms); only for a call that ran. */
  startedAt?: number;
  /** The arguments as parsed by the tool's schema; the call's own when they were not parsed. */
  args?: unknown;
  /** Sub-agent runs the call started. */
  childRunIds?: string[];
  /** The tool threw (rather than returned an error value). */
  threw?: boolean;
}

function resultPart(call: ToolCallPart, result: unknown, isError: boolean): ToolResultPart {
  return { type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, result, isError };
}

function errorText(result: unknown): string {
  const error = (result as { error?: unknown } | null)?.error;
  return typeof error === "string" ? error : JSON.stringify(result);
}

export type { PauseSignal, CallHost };
