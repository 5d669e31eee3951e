/**
 * The ToolContext a tool call receives: durable steps, sub-agents, interrupts and sleeps, each
 * journaled under the call's name so that a resume re-enters the call and replays them.
 * A pause point (a question, a sleep, a sub-agent) is a `signal`; going on past one writes a
 * `<point>:passed` marker first, so a crash after it is an unknown outcome (see resume-rules.ts).
 */
import { assertUserStepName, answerName, passedName } from "../journal/names";
import type { Journal, Waker } from "../journal/ports";
import type { JournalRecord, RecordKind } from "../journal/types";
import { BadInputError } from "../journal/errors";
import type { RunResult } from "./run-result";
import type { AgentEvent } from "./events";
import type { RunInput, Usage } from "./messages";
import { isTreeModel, type Model } from "./model";
import type { AnswerPayload, PassedPayload, SignalPayload, SleepPayload, ValuePayload } from "./payloads";
import { Interrupted, ResumeHalt, Sleeping } from "./pauses";
import type { AgentLike, ToolContext } from "./tool";

/** What a call's context needs of the drive that runs it. */
export interface CallHost {
  readonly runId: string;
  readonly rootRunId: string;
  readonly journal: Journal;
  readonly signal: AbortSignal;
  readonly waker: Waker | undefined;
  readonly model: Model;
  readonly emit: (event: AgentEvent) => void;
  /** The payload recorded under `name`, or `make()` appended (the first writer's, if another wins). */
  once<P>(name: string, kind: RecordKind, make: () => Promise<P> | P): Promise<P>;
  /** Appends and remembers a record; `created` is false when another writer had recorded the name. */
  append(name: string, kind: RecordKind, payload: unknown): Promise<{ created: boolean }>;
  /** The record under `name`, from this drive's view or, failing that, the store (a human may have written it since). */
  lookup(name: string): Promise<JournalRecord | undefined>;
  has(name: string): boolean;
  addUsage(usage: Usage): void;
  /** Adds a sub-agent's cost (null: unknown, and the whole drive's cost becomes unknown). */
  addCost(cost: number | null): void;
  now(): number;
}

interface CallIdentity {
  /** The call's name prefix: turn:<t>:call:<i> (or a saga compensation's). */
  name: string;
  toolCallId: string;
  idempotencyKey: string;
  /** Sub-agent runs started by this call, filled in as they start. */
  childRunIds: string[];
  toolName: string;
  args: unknown;
  /** The tool declares safety.idempotencyKey: going on past a point another driver passed is safe. */
  retrySafe: boolean;
}

/** The pause points a call has reached so far, counted per kind: each point's name is its count. */
interface Points {
  children: number;
  asks: number;
  sleeps: number;
}

export function callContext(host: CallHost, call: CallIdentity): ToolContext {
  const points: Points = { children: 0, asks: 0, sleeps: 0 };
  return {
    runId: host.runId,
    toolCallId: call.toolCallId,
    callName: call.name,
    idempotencyKey: call.idempotencyKey,
    journal: host.journal,
    signal: host.signal,
    now: () => host.now(),
    step: (step, fn) => durableStep(host, call, step, fn),
    runAgent: (child, input) => runSubAgent(host, call, points, child, input),
    ask: (question) => askPerson(host, call, points, question),
    sleep: (ms) => sleepUntil(host, call, points, ms),
  };
}

/**
 * Marks a pause point passed; true when this drive passed it first. When another driver wrote
 * the marker first (a lease that expired under a slow holder), that driver is past this point
 * already and what it did since is unknown: going on could repeat it, so the run halts.
 */
async function pass(host: CallHost, call: CallIdentity, point: string): Promise<boolean> {
  if (host.has(passedName(point))) return false;
  host.signal.throwIfAborted();
  const payload: PassedPayload = { type: "passed", point, at: new Date(host.now()).toISOString() };
  const { created } = await host.append(passedName(point), "attempt", payload);
  if (!created && !call.retrySafe) throw new ResumeHalt(host.runId, passedName(point), call.toolName, call.args);
  return created;
}

async function durableStep<T>(host: CallHost, call: CallIdentity, step: string, fn: () => Promise<T> | T): Promise<T> {
  assertUserStepName(step);
  const payload = await host.once<ValuePayload>(`${call.name}:step:${step}`, "value", async () => {
    host.signal.throwIfAborted();
    return { step, value: await fn() };
  });
  return payload.value as T;
}

async function runSubAgent(host: CallHost, call: CallIdentity, points: Points, child: AgentLike, input: RunInput): Promise<RunResult> {
  const { name } = call;
  const childRunId = `${host.runId}.${name.replace(/^turn:(\d+):call:(\d+)$/, "t$1c$2")}${points.children === 0 ? "" : `-${points.children}`}`;
  const point = `${name}:agent:${points.children}`;
  points.children += 1;
  call.childRunIds.push(childRunId);
  host.signal.throwIfAborted();
  // Journaled before the child starts: a resume may re-enter this call, since the child is itself durable.
  await host.once<SignalPayload>(point, "signal", () => ({ type: "subagent", childRunId, agent: child.name }));
  const result = await child.runChild(childRunId, input, {
    parentRunId: host.runId,
    journal: host.journal,
    inheritedModel: isTreeModel(host.model) ? host.model : undefined,
    onEvent: host.emit,
    signal: host.signal,
    waker: host.waker,
    rootRunId: host.rootRunId,
  });
  await pass(host, call, point);
  host.addUsage(result.usage);
  host.addCost(result.costUsd);
  return result;
}

async function askPerson(host: CallHost, call: CallIdentity, points: Points, question: string): Promise<string> {
  if (typeof question !== "string" || question.length === 0) throw new BadInputError("ctx.ask needs a question");
  const point = `${call.name}:ask:${points.asks}`;
  points.asks += 1;
  host.signal.throwIfAborted();
  const asked = await host.once<{ type: "interrupt"; question: string }>(point, "signal", () => ({ type: "interrupt", question }));
  const answer = await host.lookup(answerName(point));
  if (!answer) throw new Interrupted(host.runId, answerName(point), typeof asked.question === "string" ? asked.question : question);
  await pass(host, call, point);
  return (answer.payload as AnswerPayload).text;
}

async function sleepUntil(host: CallHost, call: CallIdentity, points: Points, ms: number): Promise<void> {
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) throw new BadInputError(`sleep needs a non-negative number of milliseconds, got ${ms}`);
  const point = `${call.name}:sleep:${points.sleeps}`;
  points.sleeps += 1;
  host.signal.throwIfAborted();
  const { wakeAt } = await host.once<SleepPayload>(point, "signal", () => ({ type: "sleep", ms, wakeAt: new Date(host.now() + ms).toISOString() }));
  if (host.has(passedName(point))) return;
  if (host.now() >= Date.parse(wakeAt)) {
    if (await pass(host, call, point)) await host.waker?.clear(host.runId, point);
    return;
  }
  // Replaying into a sleep registers it again: a restarted process rebuilds its timers this way.
  await host.waker?.register({ runId: host.runId, rootRunId: host.rootRunId, name: point, wakeAt });
  throw new Sleeping(host.runId, point, wakeAt);
}
