/**
 * tryStep: re-run one journaled model turn `times` times, with the request it was asked (rebuilt by
 * request.ts) or an edited one, and see how often it goes the other way. Invariants:
 * - everything is checked (the run, the step, the agent, the model, `times`, the edits) before a
 *   try runs or anything is written;
 * - each try asks the same request with its own `seed` (0, 1, …): a sampling model may answer
 *   each differently, a scripted one is deterministic per seed, so a try can be asked again;
 * - with `journal` (the default), each try is a small run `<source>~try-<n>`, origin `playground`:
 *   the source's records before the turn, then the try's output as the turn (a fork copy, made in
 *   one statement), status complete. It diffs against the source and opens by link; forkTry turns
 *   it into a live fork.
 */
import type { AssistantMessage, Message, Usage } from "../agent/messages";
import { collect } from "../agent/model";
import type { HeaderPayload, ModelPayload } from "../agent/payloads";
import type { Registry } from "../agent/registry";
import { isForker, type Journal } from "../journal/ports";
import type { WordPart } from "../inspect/diff-view";
import { forkModel } from "../fork/fork-run";
import { TryError } from "./errors";
import { requestAt, type StepRequest } from "./request";
import { outputDiff, outputText, summarizeTries, type TrySummary } from "./summary";

export const MAX_TRIES = 20;
const TRY_SUFFIX = "~try-";
const MAX_SLOTS = 10_000;

/** What a try changes in the turn's request; whatever is not given stays as it was journaled. */
export interface TryEdits {
  /** The system prompt ("" for none). */
  system?: string;
  /** The whole message list the model is sent (the journaled one, edited). */
  messages?: Message[];
}

export interface TryOptions {
  edits?: TryEdits;
  /** A registry model name; by default the one the run was recorded with. */
  model?: string;
  /** 1 to 20; default 1. */
  times?: number;
  registry: Registry;
  /** Journal each try as a run (default true). */
  journal?: boolean;
  signal?: AbortSignal;
}

export interface TryResult {
  index: number;
  /** The try's run, when it was journaled. */
  runId?: string;
  message: AssistantMessage;
  text: string;
  usage: Usage;
  durationMs: number;
  /** Word diff against the recorded output (undefined when too long to diff). */
  diff?: WordPart[];
}

export interface StepTries {
  runId: string;
  at: number;
  turn: number;
  model: string;
  /** The request as the tries asked it (edits applied). */
  request: { system?: string; messages: Message[]; tools: string[] };
  edited: boolean;
  recorded: { message: AssistantMessage; text: string };
  tries: TryResult[];
  summary: TrySummary;
}

function checkedTimes(runId: string, at: number, times: number | undefined): number {
  const count = times ?? 1;
  if (!Number.isInteger(count) || count < 1 || count > MAX_TRIES) throw new TryError(runId, at, `times must be a whole number from 1 to ${MAX_TRIES}, got ${String(times)}`);
  return count;
}

function checkedEdits(runId: string, at: number, edits: TryEdits | undefined): TryEdits {
  if (edits?.system !== undefined && typeof edits.system !== "string") throw new TryError(runId, at, "edits.system must be text");
  if (edits?.messages !== undefined && (!Array.isArray(edits.messages) || edits.messages.length === 0))
    throw new TryError(runId, at, "edits.messages must be a non-empty list of messages");
  return edits ?? {};
}

/** Re-runs the model turn at step `at` of `runId` (see the top of this file). */
export async function tryStep(store: Journal, runId: string, at: number, options: TryOptions): Promise<StepTries> {
  const times = checkedTimes(runId, at, options.times);
  const edits = checkedEdits(runId, at, options.edits);
  const step = await requestAt(store, runId, at, options.registry);
  const { model, name } = forkModel(runId, step.header, { at, registry: options.registry, ...(options.model ? { model: options.model } : {}) });
  if (options.journal !== false && !isForker(store)) throw new TryError(runId, at, "this store cannot journal tries (it has no copyForFork); pass journal: false");
  const system = edits.system ?? step.request.system;
  const request = { ...step.request, ...(system ? { system } : { system: undefined }), messages: edits.messages ?? step.request.messages };
  const recorded = (step.record.payload as ModelPayload).message;
  const tries: TryResult[] = [];
  let slot = options.journal === false ? 0 : await firstFreeSlot(store, runId);
  for (let index = 0; index < times; index += 1) {
    const started = Date.now();
    const answer = await collect(model, { ...request, seed: index, ...(options.signal ? { signal: options.signal } : {}) });
    const result: TryResult = { index, message: answer.message, text: outputText(answer.message), usage: answer.usage, durationMs: Date.now() - started };
    const diff = outputDiff(recorded, answer.message);
    if (diff) result.diff = diff;
    if (options.journal !== false) {
      const journaled = await journalTry(store, step, { name, system, index, result, from: slot });
      result.runId = journaled.runId;
      slot = journaled.slot + 1;
    }
    tries.push(result);
  }
  return {
    runId,
    at,
    turn: step.turn,
    model: name,
    request: { ...(request.system ? { system: request.system } : {}), messages: request.messages, tools: request.tools.map((tool) => tool.name) },
    edited: edits.system !== undefined || edits.messages !== undefined,
    recorded: { message: recorded, text: outputText(recorded) },
    tries,
    summary: summarizeTries(
      recorded,
      tries.map((each) => each.message),
    ),
  };
}

/**
 * A free `<source>~try-<n>` slot, in O(log n) lookups: tries fill slots from 1, so the first free
 * one past the taken run is found by doubling, then halving (a hole left by a deleted try may be
 * found instead, which is as good: creating the copy is what claims a slot).
 */
async function firstFreeSlot(store: Journal, source: string): Promise<number> {
  const taken = async (slot: number) => (await store.run(`${source}${TRY_SUFFIX}${slot}`)) !== undefined;
  if (!(await taken(1))) return 1;
  let low = 1;
  let high = 2;
  while (high <= MAX_SLOTS && (await taken(high))) [low, high] = [high, high * 2];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await taken(middle)) low = middle;
    else high = middle;
  }
  return high;
}

/** Writes one try as a run: the source's records before the turn, then the try's output as the turn. */
async function journalTry(
  store: Journal,
  step: StepRequest,
  made: { name: string; system: string | undefined; index: number; result: TryResult; from: number },
): Promise<{ runId: string; slot: number }> {
  if (!isForker(store)) throw new TryError(step.record.runId, step.record.seq, "this store cannot journal tries");
  const source = step.record.runId;
  const at = step.record.seq;
  const { replayOf: _replayOf, system: _system, ...kept } = step.header;
  const header: HeaderPayload = {
    ...kept,
    ...(made.system ? { system: made.system } : {}),
    model: made.name,
    forkedFrom: { runId: source, at },
    idempotencyRunId: step.header.idempotencyRunId ?? source,
    tryOf: { runId: source, at, try: made.index },
  };
  const recorded = step.record.payload as ModelPayload;
  const payload: ModelPayload & { edited: { original: unknown } } = {
    message: made.result.message,
    usage: made.result.usage,
    model: made.name,
    durationMs: made.result.durationMs,
    edited: { original: recorded },
  };
  const copy = { sourceRunId: source, at, header, edited: { name: step.record.name, kind: "model" as const, payload }, origin: "playground" as const, status: "complete" as const };
  // Creating the copy claims its id (ON CONFLICT DO NOTHING): a taken slot, whoever took it, is skipped.
  for (let slot = made.from; slot <= MAX_SLOTS; slot += 1) {
    const candidate = `${source}${TRY_SUFFIX}${slot}`;
    if ((await store.copyForFork({ ...copy, newRunId: candidate })).created) return { runId: candidate, slot };
  }
  throw new TryError(source, at, `no free try id after ${MAX_SLOTS} tries`);
}
