/**
 * One drive of a run through the agent loop. Journal rules it keeps:
 * - run:start (the input) is the first record; a resume reads the input back from it;
 * - a model turn is journaled before its tool calls run; on resume it is replayed, never re-asked;
 * - an `attempt` record is written before a tool executes; a resume that finds an attempt without
 *   a result halts (ResumeHalt) unless the tool is idempotent or the call stopped at a durable
 *   pause of its own (a signal record under the call's name);
 * - run:complete is written once, at the terminal answer.
 */
import { canonicalJson, stableHash } from "../journal/canonical";
import type { Journal } from "../journal/ports";
import { approvalName, assertUserStepName, attemptName, callName, memoryContextName, resultName, RUN_COMPLETE, RUN_START, turnName } from "../journal/names";
import type { JournalRecord } from "../journal/types";
import { InputMismatchError, MaxTurnsError, type Agent, type RunResult } from "./agent";
import type { AgentEvent } from "./events";
import { addUsage, inputMessages, type AssistantMessage, textOf, toolCallsOf, ZERO_USAGE, type Message, type RunInput, type ToolCallPart, type ToolResultPart, type Usage } from "./messages";
import { readMemoryContext, type MemoryContextPayload } from "./memory";
import { collect, isTreeModel, type Model } from "./model";
import type { ApprovalPayload, AttemptPayload, HeaderPayload, ModelPayload, SignalPayload, ToolResultPayload, ValuePayload } from "./payloads";
import { isPause, PendingApproval, ResumeHalt, type PauseSignal } from "./pauses";
import { describeTool, type AnyTool, type ToolContext } from "./tool";

export interface DriveOptions {
  model?: Model;
  journal?: Journal;
  replayOf?: string;
  parentRunId?: string;
  onEvent?: (event: AgentEvent) => void;
  signal?: AbortSignal;
}

export class Drive {
  private readonly journal: Journal;
  private readonly model: Model;
  private readonly emit: (event: AgentEvent) => void;
  private readonly signal: AbortSignal;
  private recorded = new Map<string, JournalRecord>();
  private usage: Usage = ZERO_USAGE;
  private liveTurns = 0;

  constructor(
    private readonly agent: Agent,
    private readonly runId: string,
    private readonly options: DriveOptions,
  ) {
    this.journal = options.journal ?? agent.store;
    this.model = options.model ?? agent.model;
    this.emit = options.onEvent ?? (() => undefined);
    this.signal = options.signal ?? new AbortController().signal;
  }

  async run(input: RunInput | undefined): Promise<RunResult> {
    const started = Date.now();
    try {
      const message = await this.loop(input);
      return { message, text: textOf(message), usage: this.usage, turns: this.liveTurns, duration: Date.now() - started, runId: this.runId };
    } catch (error) {
      if (isPause(error)) {
        // A pause inside a sub-agent pauses every run up the tree; the state names the run that waits.
        await this.journal.setStatus(this.runId, { status: "paused", pause: error.state() });
      } else {
        const message = error instanceof Error ? error.message : String(error);
        await this.journal.setStatus(this.runId, { status: "failed", error: message }).catch(() => undefined);
      }
      throw error;
    }
  }

  private async loop(input: RunInput | undefined): Promise<AssistantMessage> {
    for (const record of await this.journal.history(this.runId)) this.recorded.set(record.name, record);
    const header = await this.start(input);
    const memory = await this.memoryContext(header);
    const messages: Message[] = [...(memory?.composed ?? []), ...inputMessages(header.input)];
    const system = memory?.system ?? header.system;
    const tools = [...this.agent.tools.values()].map(describeTool);
    for (let turn = 0; ; turn += 1) {
      if (turn >= this.agent.maxTurns) throw new MaxTurnsError(this.runId, this.agent.maxTurns);
      this.emit({ type: "TurnStarted", runId: this.runId, turn });
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
    const header: HeaderPayload = {
      input,
      agent: this.agent.name,
      model: this.model.id,
      tools: [...this.agent.tools.keys()],
      ...(this.agent.system === undefined ? {} : { system: this.agent.system }),
      ...(this.options.parentRunId === undefined ? {} : { parentRunId: this.options.parentRunId }),
      ...(this.options.replayOf === undefined ? {} : { replayOf: this.options.replayOf }),
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
  private async once<P>(name: string, kind: "header" | "model" | "value" | "signal" | "attempt" | "tool_result", make: () => Promise<P> | P): Promise<P> {
    const existing = this.recorded.get(name);
    if (existing) return existing.payload as P;
    const { record } = await this.journal.append({ runId: this.runId, name, kind, payload: await make() });
    this.recorded.set(name, record);
    return record.payload as P;
  }

  private async modelTurn(turn: number, request: Parameters<Model["stream"]>[0]): Promise<ModelPayload> {
    const name = turnName(turn);
    const existing = this.recorded.get(name);
    if (existing) {
      const payload = existing.payload as ModelPayload;
      this.emit({ type: "AssistantTurn", runId: this.runId, turn, message: payload.message, usage: payload.usage, replayed: true });
      return payload;
    }
    const started = Date.now();
    const { message, usage } = await collect(this.model, request, (text) => this.emit({ type: "ModelDelta", runId: this.runId, turn, text }));
    const payload = await this.once<ModelPayload>(name, "model", () => ({ message, usage, model: this.model.id, durationMs: Date.now() - started }));
    this.liveTurns += 1;
    this.usage = addUsage(this.usage, usage);
    this.emit({ type: "AssistantTurn", runId: this.runId, turn, message: payload.message, usage: payload.usage, replayed: false });
    return payload;
  }

  private async toolCall(turn: number, index: number, call: ToolCallPart): Promise<ToolResultPart> {
    const name = callName(turn, index);
    const recorded = this.recorded.get(resultName(name));
    if (recorded) {
      const payload = recorded.payload as ToolResultPayload;
      this.emit({ type: "ToolCompleted", runId: this.runId, toolUseId: call.toolCallId, name: call.toolName, result: payload.result, isError: payload.isError, replayed: true });
      return resultPart(call, payload.result, payload.isError);
    }
    this.emit({ type: "ToolStarted", runId: this.runId, toolUseId: call.toolCallId, name: call.toolName, args: call.args });
    const definition = this.agent.tools.get(call.toolName);
    if (!definition) return this.finishCall(name, call, { error: `unknown tool "${call.toolName}"` }, true, 0);
    const parsed = definition.input.safeParse(call.args);
    if (!parsed.success) {
      return this.finishCall(name, call, { error: `invalid input for ${call.toolName}: ${parsed.error.message}` }, true, 0);
    }
    const args: unknown = parsed.data;
    const approval = await this.approval(name, definition, call, args);
    if (approval && !approval.approved) {
      return this.finishCall(name, call, { error: `denied by ${approval.by}${approval.reason ? `: ${approval.reason}` : ""}` }, true, 0);
    }
    const idempotencyKey = stableHash({ runId: this.runId, call: name, tool: call.toolName, args });
    if (this.recorded.has(attemptName(name))) {
      const stoppedAtPause = [...this.recorded.values()].some((record) => record.kind === "signal" && record.name.startsWith(`${name}:`));
      if (!stoppedAtPause && !definition.safety?.idempotencyKey) throw new ResumeHalt(this.runId, attemptName(name), call.toolName, args);
    } else {
      const attempt: AttemptPayload = { toolCallId: call.toolCallId, toolName: call.toolName, args, idempotencyKey };
      const { created, record } = await this.journal.append({ runId: this.runId, name: attemptName(name), kind: "attempt", payload: attempt });
      this.recorded.set(record.name, record);
      // Another driver attempted this call at the same time: its outcome is unknown to us.
      if (!created && !definition.safety?.idempotencyKey) throw new ResumeHalt(this.runId, attemptName(name), call.toolName, args);
    }
    const childRunIds: string[] = [];
    const started = Date.now();
    let result: unknown;
    let isError = false;
    try {
      result = await definition.execute(args, this.context(name, call, idempotencyKey, childRunIds));
    } catch (error) {
      if (isPause(error)) throw error;
      result = { error: error instanceof Error ? error.message : String(error) };
      isError = true;
    }
    return this.finishCall(name, call, result, isError, Date.now() - started, args, childRunIds);
  }

  private async approval(name: string, definition: AnyTool, call: ToolCallPart, args: unknown): Promise<ApprovalPayload | undefined> {
    const needed = typeof definition.needsApproval === "function" ? definition.needsApproval(args) : definition.needsApproval === true;
    if (!needed) return undefined;
    const record = this.recorded.get(approvalName(name)) ?? (await this.journal.record(this.runId, approvalName(name)));
    if (!record) throw new PendingApproval(this.runId, approvalName(name), call.toolName, args);
    return record.payload as ApprovalPayload;
  }

  private async finishCall(
    name: string,
    call: ToolCallPart,
    result: unknown,
    isError: boolean,
    durationMs: number,
    args: unknown = call.args,
    childRunIds: string[] = [],
  ): Promise<ToolResultPart> {
    const payload = await this.once<ToolResultPayload>(resultName(name), "tool_result", () => ({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      args,
      result: result === undefined ? null : result,
      isError,
      durationMs,
      ...(childRunIds.length > 0 ? { childRunIds } : {}),
    }));
    this.emit({ type: "ToolCompleted", runId: this.runId, toolUseId: call.toolCallId, name: call.toolName, result: payload.result, isError: payload.isError, replayed: false });
    return resultPart(call, payload.result, payload.isError);
  }

  private context(name: string, call: ToolCallPart, idempotencyKey: string, childRunIds: string[]): ToolContext {
    let children = 0;
    return {
      runId: this.runId,
      toolCallId: call.toolCallId,
      callName: name,
      idempotencyKey,
      journal: this.journal,
      signal: this.signal,
      step: async (step, fn) => {
        assertUserStepName(step);
        const payload = await this.once<ValuePayload>(`${name}:step:${step}`, "value", async () => ({ step, value: await fn() }));
        return payload.value as Awaited<ReturnType<typeof fn>>;
      },
      runAgent: async (child, input) => {
        const childRunId = `${this.runId}.${name.replace(/^turn:(\d+):call:(\d+)$/, "t$1c$2")}${children === 0 ? "" : `-${children}`}`;
        const signalName = `${name}:agent:${children}`;
        children += 1;
        childRunIds.push(childRunId);
        // Journaled before the child starts: a resume may re-enter this call, since the child is itself durable.
        await this.once<SignalPayload>(signalName, "signal", () => ({ type: "subagent", childRunId, agent: child.name }));
        const result = await child.runChild(childRunId, input, {
          parentRunId: this.runId,
          journal: this.journal,
          inheritedModel: isTreeModel(this.model) ? this.model : undefined,
          onEvent: this.emit,
        });
        this.usage = addUsage(this.usage, result.usage);
        return result;
      },
    };
  }
}

function resultPart(call: ToolCallPart, result: unknown, isError: boolean): ToolResultPart {
  return { type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, result, isError };
}

export type { PauseSignal };
