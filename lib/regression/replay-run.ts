/**
 * replayRun: runs a recorded run's frozen input again, fresh, under a new run id and whatever is
 * overridden (model, tools, system text, memory). Invariants:
 * - the input comes from the source's run:start record: the caller never passes the prompt again;
 * - nothing is written under the source run's id (its records stay byte-identical);
 * - the new run's run:start records `replayOf`, and is the first thing written: appending it is
 *   how a replay claims its id. The journal's first-writer-wins append decides which slot is free,
 *   so derived ids (`<source>~replay-<n>`) are unique across processes without a timestamp.
 */
import { Agent } from "../agent/agent";
import type { RunResult } from "../agent/agent";
import { inputMessages, type RunInput } from "../agent/messages";
import type { Model } from "../agent/model";
import type { HeaderPayload } from "../agent/payloads";
import { isPause } from "../agent/pauses";
import type { Registry } from "../agent/registry";
import type { AnyTool } from "../agent/tool";
import type { AgentEvent } from "../agent/events";
import { canonicalJson } from "../journal/canonical";
import { BadInputError, RunNotFoundError } from "../journal/errors";
import { RUN_START } from "../journal/names";
import type { Journal } from "../journal/ports";
import type { AppendResult, JournalRecord, PauseState } from "../journal/types";
import { NoRecordedInputError } from "../agent/errors";
import { ReplayFailedError, ReplayTargetExistsError, ReplayToolsError } from "./errors";
import { planMemory, type StripDisclosure } from "../memory/replay-plan";
import { resolveReplayModel } from "./models";

export interface ReplayRunOptions {
  journal: Journal;
  /** The recorded run whose input is run again. */
  runId: string;
  /** A Model, or a name: `recorded` or one of the registry's models. */
  model: Model | string;
  /** The tool set; by default the tools of the source's agent in `registry`. */
  tools?: AnyTool[] | Record<string, AnyTool>;
  /** A new system text; by default the source's recorded one. */
  system?: string;
  /** Keep only the turn's own incoming messages (see lib/memory/replay-plan.ts). */
  stripMemoryContext?: boolean;
  /** The replay's id; by default `<runId>~replay-<n>`, the first free n. */
  newRunId?: string;
  /** Agents (for the source agent's tools and sub-agents) and models by name. */
  registry?: Registry;
  onEvent?: (event: AgentEvent) => void;
  signal?: AbortSignal;
}

export interface ReplayRunResult {
  newRunId: string;
  sourceRunId: string;
  /** The id of the model that drove the replay. */
  model: string;
  /** The replay's result; null when it paused (see `pause`). */
  result: RunResult | null;
  pause?: PauseState;
  /** Present for a memory-off replay: what was dropped, and that the system text was not edited. */
  memoryStripped?: StripDisclosure;
}

const REPLAY_SUFFIX = "~replay-";
const MAX_SLOTS = 10_000;
/** Where this process starts looking for a free slot, per journal and source: a hint, the journal decides. */
const nextSlots = new WeakMap<Journal, Map<string, number>>();

async function readHeader(journal: Journal, runId: string): Promise<HeaderPayload> {
  if (!(await journal.run(runId))) throw new RunNotFoundError(runId);
  const record = await journal.record(runId, RUN_START);
  const header = record?.kind === "header" ? (record.payload as Partial<HeaderPayload> | null) : undefined;
  const input = header?.input;
  const validInput = typeof input === "string" || (Array.isArray(input) && input.length > 0);
  if (!header || !validInput || typeof header.agent !== "string") throw new NoRecordedInputError(runId, "replay");
  return { ...header, tools: Array.isArray(header.tools) ? header.tools : [] } as HeaderPayload;
}

function toolList(tools: AnyTool[] | Record<string, AnyTool>): AnyTool[] {
  return Array.isArray(tools) ? tools : Object.values(tools);
}

function replayAgent(options: ReplayRunOptions, header: HeaderPayload, model: Model, memory: Agent["memory"]): Agent {
  const registered = options.registry?.hasAgent(header.agent) ? options.registry.agent(header.agent, options.journal, model) : undefined;
  const tools = options.tools ? toolList(options.tools) : registered ? [...registered.tools.values()] : undefined;
  if (!tools && header.tools.length > 0) throw new ReplayToolsError(options.runId, header.agent, header.tools);
  const system = options.system ?? header.system;
  return new Agent({
    name: header.agent,
    model,
    store: options.journal,
    tools: tools ?? [],
    ...(system === undefined ? {} : { system }),
    ...(registered ? { maxTurns: registered.maxTurns } : {}),
    ...(memory ? { memory } : {}),
  });
}

/** Appends the replay's run:start; `created` is false when another writer holds the id. */
function claim(journal: Journal, runId: string, header: HeaderPayload): Promise<AppendResult<HeaderPayload>> {
  return journal.append({ runId, name: RUN_START, kind: "header", payload: header });
}

/** The claimed id and, when this claim created the run, its run:start: the whole run so far. */
interface Claimed {
  runId: string;
  claimedHeader?: JournalRecord;
}

async function claimId(options: ReplayRunOptions, header: HeaderPayload): Promise<Claimed> {
  const source = options.runId;
  if (options.newRunId !== undefined) {
    if (options.newRunId === source) throw new BadInputError("a replay needs a new run id, not the source's");
    const { created, record } = await claim(options.journal, options.newRunId, header);
    if (created) return { runId: options.newRunId, claimedHeader: record };
    // An unfinished replay of the same source and input resumes; anything else is someone else's run.
    const existing = record.payload;
    const resumable = existing.replayOf === source && canonicalJson(inputMessages(existing.input)) === canonicalJson(inputMessages(header.input));
    if (!resumable) throw new ReplayTargetExistsError(options.newRunId, source);
    return { runId: options.newRunId };
  }
  let nextSlot = nextSlots.get(options.journal);
  if (!nextSlot) nextSlots.set(options.journal, (nextSlot = new Map()));
  for (let tries = 0, slot = nextSlot.get(source) ?? 1; tries < MAX_SLOTS; tries += 1, slot += 1) {
    const candidate = `${source}${REPLAY_SUFFIX}${slot}`;
    if (await options.journal.run(candidate)) continue;
    const { created, record } = await claim(options.journal, candidate, header);
    if (created) {
      nextSlot.set(source, slot + 1);
      return { runId: candidate, claimedHeader: record };
    }
  }
  throw new BadInputError(`no free replay id for "${source}" after ${MAX_SLOTS} tries; pass newRunId`);
}

interface ReplayPlan {
  agent: Agent;
  model: Model;
  input: RunInput;
  newRunId: string;
  /** run:start, when this plan's claim created the run. */
  claimedHeader?: JournalRecord;
  disclosure?: StripDisclosure;
}

/** Everything before the drive: the frozen input, the memory plan, the model, the agent, and the claimed id. */
async function planReplay(options: ReplayRunOptions): Promise<ReplayPlan> {
  const { journal, runId } = options;
  const header = await readHeader(journal, runId);
  const plan = await planMemory(journal, runId, header, { strip: options.stripMemoryContext === true, systemOverride: options.system });
  const model = await resolveReplayModel(options.model, journal, runId, options.registry);
  const agent = replayAgent(options, header, model, plan.memory);
  const input: RunInput = plan.input;
  const newHeader: HeaderPayload = {
    input,
    agent: agent.name,
    model: model.id,
    tools: [...agent.tools.keys()],
    ...(agent.system === undefined ? {} : { system: agent.system }),
    replayOf: runId,
  };
  const claimed = await claimId(options, newHeader);
  return {
    ...{ agent, model, input, newRunId: claimed.runId },
    ...(claimed.claimedHeader ? { claimedHeader: claimed.claimedHeader } : {}),
    ...(plan.disclosure ? { disclosure: plan.disclosure } : {}),
  };
}

/**
 * Checks that a replay can start (the source, its input, the memory record, the model, the tools)
 * and claims its id by writing the new run's run:start, without driving it. A later
 * `replayRun({ ...options, newRunId })` drives that claimed run (a background job does it): the
 * caller learns the id, and every error it can fix, before the work starts.
 */
export async function reserveReplay(options: Omit<ReplayRunOptions, "onEvent" | "signal">): Promise<string> {
  return (await planReplay(options)).newRunId;
}

export async function replayRun(options: ReplayRunOptions): Promise<ReplayRunResult> {
  const { agent, model, input, newRunId, claimedHeader, disclosure } = await planReplay(options);
  const outcome: ReplayRunResult = { newRunId, sourceRunId: options.runId, model: model.id, result: null, ...(disclosure ? { memoryStripped: disclosure } : {}) };
  try {
    // A run this replay just created holds its run:start alone: the drive need not read it back.
    const history = claimedHeader ? { history: [claimedHeader] } : {};
    outcome.result = await agent.runResult(newRunId, input, { model, replayOf: options.runId, onEvent: options.onEvent, signal: options.signal, ...history });
  } catch (error) {
    if (!isPause(error)) throw new ReplayFailedError(options.runId, newRunId, error);
    outcome.pause = error.state();
  }
  return outcome;
}
