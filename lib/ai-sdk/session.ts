/**
 * One AI SDK run as this process sees it: what backtrackMiddleware and journalTools share for a
 * (store, runId). Record names are the native loop's (`turn:<t>`, `turn:<t>:call:<i>:attempt`,
 * `…:result`, `…:approval`), so the inspector, diffRuns, replayRun and recovery read an AI SDK
 * run like a native one. Invariants:
 * - run:start is written before the first model record, the first time a run is seen;
 * - a model call is matched to a recorded one by its request (system text and messages): the
 *   earliest recorded call with the same request not yet served in this session is served, and a
 *   call that matches none is made live and journaled as the next turn (`mode: "record"`);
 *   in `mode: "replay"` the n-th call must match the n-th recorded one, else NoRecordedOutputError;
 * - a tool call is placed by its toolCallId in the latest model turn of this session that holds
 *   it (then in the recorded turns), so its records sit under that turn's call index;
 * - a halt (an attempt without a result) is remembered, and the next model call raises it: the
 *   AI SDK turns a tool's throw into a tool error the model sees, which must not happen here.
 */
import { BadInputError, RunNotFoundError } from "../journal/errors";
import { RUN_COMPLETE, RUN_START, turnName } from "../journal/names";
import type { Journal } from "../journal/ports";
import type { JournalRecord, RecordKind } from "../journal/types";
import { inputMessages, textOf, toolCallsOf, type AssistantMessage, type RunInput, type ToolCallPart, type Usage } from "../agent/messages";
import type { HeaderPayload, ModelPayload } from "../agent/payloads";
import type { PauseSignal } from "../agent/pauses";
import { NoRecordedOutputError } from "../agent/replay";
import { journaledRequest, requestHash, type JournaledRequest } from "./convert";

export type JournalMode = "record" | "replay";

/** A model record written by backtrackMiddleware: the native payload plus what the call was asked. */
export interface AiSdkModelPayload extends ModelPayload {
  source: "ai-sdk";
  /** What the call was asked; a long conversation keeps only its new messages (`omitted` counts the rest). */
  request: JournaledRequest & { omitted?: number };
  requestHash: string;
  /** The AI SDK's unified finish reason. */
  finishReason: string;
}

export interface RecordedTurn {
  turn: number;
  payload: ModelPayload & Partial<AiSdkModelPayload>;
}

/** A model call in progress: the recorded output it is served, or the turn it will be journaled as. */
export interface CallPlan {
  request: JournaledRequest;
  hash: string;
  recorded?: RecordedTurn;
}

export interface LocatedCall {
  /** The call's name prefix: turn:<t>:call:<i>. */
  name: string;
  call: ToolCallPart;
}

const TURN = /^turn:(\d+)$/;

export class AiSdkRun {
  private loading: Promise<void> | undefined;
  readonly records = new Map<string, JournalRecord>();
  private recordedTurns: RecordedTurn[] = [];
  private readonly served = new Set<number>();
  /** Turns served or made in this session, in the order the calls were made. */
  private readonly active: RecordedTurn[] = [];
  private nextTurn = 0;
  private replayCursor = 0;
  /** Streams still being assembled: a tool call of theirs is placed once they are journaled. */
  readonly pending = new Set<Promise<void>>();
  /** A halt (or, replaying, a tool call without a recorded result) that the next model call raises. */
  halted: PauseSignal | NoRecordedOutputError | undefined;

  constructor(
    readonly store: Journal,
    readonly runId: string,
    readonly agent: string | undefined,
    readonly mode: JournalMode,
  ) {}

  /** Reads the run's records once per session (again with `refresh`, for decisions a person wrote since). */
  async load(refresh = false): Promise<void> {
    if (refresh) this.loading = undefined;
    this.loading ??= this.read();
    await this.loading;
  }

  private async read(): Promise<void> {
    const history = await this.store.history(this.runId);
    for (const record of history) this.records.set(record.name, record);
    this.recordedTurns = history.flatMap((record) => {
      const match = record.kind === "model" ? TURN.exec(record.name) : null;
      return match ? [{ turn: Number(match[1]), payload: record.payload as RecordedTurn["payload"] }] : [];
    });
    this.nextTurn = Math.max(this.nextTurn, ...this.recordedTurns.map((turn) => turn.turn + 1));
  }

  get(name: string): JournalRecord | undefined {
    return this.records.get(name);
  }

  async append(name: string, kind: RecordKind, payload: unknown): Promise<{ created: boolean; record: JournalRecord }> {
    const result = await this.store.append({ runId: this.runId, name, kind, payload });
    this.records.set(result.record.name, result.record);
    return result;
  }

  /** Plans a model call: raises a remembered halt, writes run:start the first time, finds the recorded output. */
  async plan(request: JournaledRequest, modelId: string): Promise<CallPlan> {
    if (this.halted) throw this.halted;
    await this.load();
    const hash = requestHash(request);
    if (this.mode === "replay") return { request, hash, recorded: this.replayed(hash) };
    const recorded = this.recordedTurns.find((turn) => !this.served.has(turn.turn) && turn.payload.requestHash === hash);
    if (recorded) {
      // Cut off between its answer and run:complete: the marker is written now.
      if (!this.records.has(RUN_COMPLETE)) await this.completeIfFinal(recorded);
      return { request, hash, recorded: this.serve(recorded) };
    }
    if (!this.records.has(RUN_START)) await this.writeHeader(request, modelId);
    return { request, hash };
  }

  private replayed(hash: string): RecordedTurn {
    if (this.records.size === 0) throw new RunNotFoundError(this.runId);
    const ordered = [...this.recordedTurns].sort((a, b) => a.turn - b.turn);
    const recorded = ordered[this.replayCursor];
    if (!recorded || recorded.payload.requestHash !== hash) throw new NoRecordedOutputError(this.runId, ordered.length, recorded ? this.replayCursor : undefined);
    this.replayCursor += 1;
    return this.serve(recorded);
  }

  private serve(turn: RecordedTurn): RecordedTurn {
    this.served.add(turn.turn);
    this.active.push(turn);
    return turn;
  }

  private async writeHeader(request: JournaledRequest, modelId: string): Promise<void> {
    if (this.agent === undefined) throw new BadInputError(`run "${this.runId}" has no run:start yet: backtrackMiddleware needs an agent name to start it`);
    const only = request.messages.length === 1 ? request.messages[0] : undefined;
    const input: RunInput = only?.role === "user" ? only.content : request.messages;
    const header: HeaderPayload & { source: "ai-sdk" } = {
      input: inputMessages(input).length === 0 ? "" : input,
      agent: this.agent,
      model: modelId,
      tools: request.tools,
      ...(request.system === undefined ? {} : { system: request.system }),
      source: "ai-sdk",
    };
    await this.append(RUN_START, "header", header);
  }

  /** Journals a live call's output as the next turn; the recorded one when another writer took that turn first. */
  async journal(plan: CallPlan, output: { message: AssistantMessage; usage: Usage; model: string; durationMs: number; finishReason: string }): Promise<RecordedTurn> {
    const turn = this.nextTurn;
    this.nextTurn += 1;
    const payload: AiSdkModelPayload = { ...output, source: "ai-sdk", request: journaledRequest(plan.request), requestHash: plan.hash };
    const { record } = await this.append(turnName(turn), "model", payload);
    const recorded: RecordedTurn = { turn, payload: record.payload as RecordedTurn["payload"] };
    this.recordedTurns.push(recorded);
    this.serve(recorded);
    await this.completeIfFinal(recorded);
    return recorded;
  }

  /** A turn without tool calls is the run's answer (as in the native loop): run:complete, once. */
  private async completeIfFinal(recorded: RecordedTurn): Promise<void> {
    if (toolCallsOf(recorded.payload.message).length > 0) return;
    const { created } = await this.append(RUN_COMPLETE, "value", { value: { text: textOf(recorded.payload.message), turn: recorded.turn } });
    // A conversation that went on after its first answer: the summary says complete again.
    if (!created) await this.store.setStatus(this.runId, { status: "complete" });
  }

  /** Where a tool call's records go: the latest turn holding its id (this session's first, then the journal's). */
  async locate(toolCallId: string): Promise<LocatedCall> {
    await this.load();
    const found = this.find(toolCallId);
    if (found) return found;
    if (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    // Journaled since this session read the run (the model wrapped over another store object, say).
    await this.load(true);
    const again = this.find(toolCallId);
    if (again) return again;
    throw new BadInputError(
      `journalTools: tool call "${toolCallId}" is in no journaled model call of run "${this.runId}": wrap the model with backtrackMiddleware on the same store and runId`,
    );
  }

  private find(toolCallId: string): LocatedCall | undefined {
    const byTurnDesc = [...this.recordedTurns].sort((a, b) => b.turn - a.turn);
    for (const turn of [...this.active].reverse().concat(byTurnDesc)) {
      const index = toolCallsOf(turn.payload.message).findIndex((call) => call.toolCallId === toolCallId);
      if (index >= 0) return { name: `${turnName(turn.turn)}:call:${index}`, call: toolCallsOf(turn.payload.message)[index] as ToolCallPart };
    }
    return undefined;
  }
}

/** Sessions by store and run id: the middleware opens one per instance; journalTools uses the latest. */
const sessions = new WeakMap<Journal, Map<string, AiSdkRun>>();
/** Runs remembered per store; the least recently opened are forgotten beyond it (a later tool call reloads). */
const REMEMBERED_RUNS = 1_000;

export function openRun(store: Journal, runId: string, agent: string | undefined, mode: JournalMode): AiSdkRun {
  let byRun = sessions.get(store);
  if (!byRun) sessions.set(store, (byRun = new Map()));
  const run = new AiSdkRun(store, runId, agent, mode);
  byRun.delete(runId);
  byRun.set(runId, run);
  if (byRun.size > REMEMBERED_RUNS) byRun.delete(byRun.keys().next().value as string);
  return run;
}

export function currentRun(store: Journal, runId: string): AiSdkRun {
  return sessions.get(store)?.get(runId) ?? openRun(store, runId, undefined, "record");
}
