/**
 * forkRun: a new run that is the source's records [0, at) (copied by the store in one statement,
 * never through JavaScript), optionally an edited record at `at`, then the agent loop live from
 * there under a registry model. Invariants:
 * - everything is checked (the source, its header, `at`, the edit, the agent, the model) before
 *   anything is written: a refused fork leaves nothing;
 * - the copy is one step of the store (Forker.copyForFork): the fork exists whole or not at all,
 *   and creating it is how its id is claimed (`<source>~fork-<n>`, the first free n);
 * - the fork's run:start is the source's with `forkedFrom: { runId, at }` and the model that
 *   drives it after `at`; nothing is written under the source's id;
 * - a call the fork makes again live keeps the original run's idempotency key (the header's
 *   `idempotencyRunId`, the chain's first run), so an external tool can dedupe it.
 */
import type { Agent, RunResult } from "../agent/agent";
import type { AgentEvent } from "../agent/events";
import { NoRecordedInputError } from "../agent/errors";
import type { Model } from "../agent/model";
import type { HeaderPayload } from "../agent/payloads";
import { isPause } from "../agent/pauses";
import type { Registry } from "../agent/registry";
import { BadInputError, RunExistsError, RunNotFoundError } from "../journal/errors";
import { attemptName, RUN_START } from "../journal/names";
import { isForker, type ForkCopy, type Journal } from "../journal/ports";
import type { ForkedFrom, JournalRecord, PauseState, RunStatus } from "../journal/types";
import type { RedactOptions } from "../inspect/redact";
import { applyEdit, type EditedRecord, type ForkEdit } from "./edits";
import { ForkError, MissingModelError } from "./errors";

export interface ForkOptions {
  /** The step (seq) to fork at: records before it are copied; at least 1 (run:start is always kept). */
  at: number;
  edit?: ForkEdit;
  /** A registry model name or a Model; by default the model the source was recorded with. */
  model?: Model | string;
  /** Agents and models by name: the fork is driven by the source's agent from here. */
  registry?: Registry;
  /** The fork's id; by default `<source>~fork-<n>`, the first free n. */
  newRunId?: string;
  /** Let external tools run after `at` without a person's leave (default: they halt, `fork_effect`). */
  allowEffects?: boolean;
  /** How the record at `at` was shown redacted (the server's secret keys): a marker left in the edit keeps the recorded secret. */
  redaction?: RedactOptions;
}

export interface ForkRunOptions extends ForkOptions {
  onEvent?: (event: AgentEvent) => void;
  signal?: AbortSignal;
}

export interface ForkResult {
  newRunId: string;
  forkedFrom: ForkedFrom;
  /** The registry name (or id) of the model that drove the fork after `at`. */
  model: string;
  status: RunStatus;
  result: RunResult | null;
  pause?: PauseState;
  /** Why the fork failed, when its status is `failed`. */
  error?: string;
}

const FORK_SUFFIX = "~fork-";
const MAX_SLOTS = 10_000;

/** The source's header, or the typed error of a run that has none. */
export async function sourceHeader(store: Journal, runId: string): Promise<HeaderPayload> {
  if (!(await store.run(runId))) throw new RunNotFoundError(runId);
  const record = await store.record(runId, RUN_START);
  const header = record?.kind === "header" && record.seq === 0 ? (record.payload as Partial<HeaderPayload> | null) : undefined;
  if (!header || typeof header.agent !== "string" || header.input === undefined) throw new NoRecordedInputError(runId, "replay");
  return header as HeaderPayload;
}

/** The record at `at`, or ForkError when `at` is not a step of the run that can be forked at. */
async function recordAt(store: Journal, runId: string, at: number): Promise<JournalRecord> {
  if (!Number.isInteger(at) || at < 1) throw new ForkError(runId, at, "the step must be a whole number from 1 (run:start is always kept)");
  const [record] = await store.history(runId, { from: at, limit: 1 });
  if (!record) throw new ForkError(runId, at, "the run has no record there (it is past the run's end)");
  return record;
}

/** What the edit writes at `at`; a bare tool result cannot be re-run from its own step. */
async function editedRecord(store: Journal, runId: string, record: JournalRecord, edit: ForkEdit | undefined, redaction?: RedactOptions): Promise<EditedRecord | undefined> {
  if (!edit) {
    if (record.kind !== "tool_result") return undefined;
    const attempt = await store.record(runId, attemptName(record.name.replace(/:result$/, "")));
    const where = attempt ? `fork at its attempt (step ${attempt.seq}) to run the call again` : "give an edit";
    throw new ForkError(runId, record.seq, `step ${record.seq} is the result of a call that was attempted before it; edit the result, or ${where}`);
  }
  const edited = applyEdit(record, edit, redaction);
  if ("refused" in edited) throw new ForkError(runId, record.seq, edited.refused);
  if (edited.name !== record.name && (await store.record(runId, edited.name))) {
    throw new ForkError(runId, record.seq, `the run already has a record "${edited.name}"`);
  }
  return edited;
}

/** The model after `at`, and the name the fork's header records for it (what recovery rebuilds it from). */
export function forkModel(runId: string, header: HeaderPayload, options: ForkOptions): { model: Model; name: string } {
  if (options.model !== undefined && typeof options.model !== "string") return { model: options.model, name: options.model.id };
  const name = options.model ?? header.model;
  const known = options.registry?.modelEntries().map((entry) => entry.name) ?? [];
  if (!options.registry || !known.includes(name)) throw new MissingModelError(runId, name, known);
  return { model: options.registry.model(name), name };
}

export interface PreparedFork {
  copy: Omit<ForkCopy, "newRunId">;
  header: HeaderPayload;
  agent: Agent;
  model: Model;
  modelName: string;
}

/** Everything a fork needs, checked, before anything is written. */
export async function prepareFork(store: Journal, sourceRunId: string, options: ForkOptions): Promise<PreparedFork> {
  if (!isForker(store)) throw new BadInputError("this store cannot fork runs (it has no copyForFork)");
  const header = await sourceHeader(store, sourceRunId);
  const record = await recordAt(store, sourceRunId, options.at);
  const edited = await editedRecord(store, sourceRunId, record, options.edit, options.redaction);
  const { model, name } = forkModel(sourceRunId, header, options);
  if (!options.registry?.hasAgent(header.agent)) throw new ForkError(sourceRunId, options.at, `its agent "${header.agent}" is not registered, so nothing can drive the fork`);
  const agent = options.registry.agent(header.agent, store, model);
  const { replayOf: _replayOf, ...kept } = header;
  const forkHeader: HeaderPayload = {
    ...kept,
    model: name,
    forkedFrom: { runId: sourceRunId, at: options.at },
    // A fork of a fork keeps the first run's: every run of the chain gives a repeated call one key.
    idempotencyRunId: header.idempotencyRunId ?? sourceRunId,
    ...(options.allowEffects ? { allowEffects: true } : {}),
  };
  const copy = { sourceRunId, at: options.at, header: forkHeader, ...(edited ? { edited } : {}) };
  return { copy, header: forkHeader, agent, model, modelName: name };
}

/** Writes the fork's copy under its id (the given one, or the first free `<source>~fork-<n>`). */
export async function claimFork(store: Journal, prepared: PreparedFork, newRunId?: string): Promise<string> {
  if (!isForker(store)) throw new BadInputError("this store cannot fork runs (it has no copyForFork)");
  const source = prepared.copy.sourceRunId;
  if (newRunId !== undefined) {
    if (newRunId === source) throw new BadInputError("a fork needs a new run id, not the source's");
    if (!(await store.copyForFork({ ...prepared.copy, newRunId })).created) throw new RunExistsError(newRunId);
    return newRunId;
  }
  for (let slot = 1; slot <= MAX_SLOTS; slot += 1) {
    const candidate = `${source}${FORK_SUFFIX}${slot}`;
    if (await store.run(candidate)) continue;
    if ((await store.copyForFork({ ...prepared.copy, newRunId: candidate })).created) return candidate;
  }
  throw new BadInputError(`no free fork id for "${source}" after ${MAX_SLOTS} tries; pass newRunId`);
}

/** Checks and writes a fork without driving it: `driveFork` (a background job) drives it later. */
export async function reserveFork(store: Journal, sourceRunId: string, options: ForkOptions): Promise<string> {
  return claimFork(store, await prepareFork(store, sourceRunId, options), options.newRunId);
}

/** Drives a written fork from its step on; a pause is an outcome, a fault is reported in `error`. */
export async function driveFork(
  store: Journal,
  newRunId: string,
  options: { registry?: Registry; model?: Model; onEvent?: (event: AgentEvent) => void; signal?: AbortSignal },
): Promise<ForkResult> {
  const header = await sourceHeader(store, newRunId);
  if (!header.forkedFrom) throw new BadInputError(`run "${newRunId}" is not a fork`);
  const model = options.model ?? forkModel(newRunId, header, { at: header.forkedFrom.at, ...(options.registry ? { registry: options.registry } : {}) }).model;
  if (!options.registry?.hasAgent(header.agent)) throw new ForkError(newRunId, header.forkedFrom.at, `its agent "${header.agent}" is not registered`);
  const agent = options.registry.agent(header.agent, store, model);
  return drive(store, agent, newRunId, header, model, options);
}

async function drive(
  store: Journal,
  agent: Agent,
  newRunId: string,
  header: HeaderPayload,
  model: Model,
  options: { onEvent?: (event: AgentEvent) => void; signal?: AbortSignal },
): Promise<ForkResult> {
  const forkedFrom = header.forkedFrom as ForkedFrom;
  const outcome: ForkResult = { newRunId, forkedFrom, model: header.model, status: "running", result: null };
  try {
    outcome.result = await agent.runResult(newRunId, undefined, {
      model,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (isPause(error)) outcome.pause = error.state();
    else outcome.error = error instanceof Error ? error.message : String(error);
  }
  outcome.status = (await store.run(newRunId))?.status ?? (outcome.error ? "failed" : "running");
  return outcome;
}

/** Forks `sourceRunId` at `options.at` (see the top of this file) and drives the fork live from there. */
export async function forkRun(store: Journal, sourceRunId: string, options: ForkRunOptions): Promise<ForkResult> {
  const prepared = await prepareFork(store, sourceRunId, options);
  const newRunId = await claimFork(store, prepared, options.newRunId);
  return drive(store, prepared.agent, newRunId, prepared.header, prepared.model, options);
}
