/**
 * forkPlan: before a fork runs, which tools may run live after its step, with their effects
 * class, and which of them a fork without `allowEffects` halts before (`external`). Pure reads:
 * it checks what forkRun checks (so a plan that answers is a fork that can start) and writes nothing.
 */
import type { ModelPayload } from "../agent/payloads";
import { effectsOf, type ToolEffects } from "../agent/tool";
import { resultName, callName } from "../journal/names";
import type { Journal } from "../journal/ports";
import type { JournalRecord } from "../journal/types";
import { prepareFork, type ForkOptions } from "./fork-run";

export interface PlannedTool {
  name: string;
  effects: ToolEffects;
  /** A call to it is already decided at or before the step and has no result there: it runs first. */
  pending: boolean;
  /** The fork halts before running it (`fork_effect`) unless effects are allowed. */
  halts: boolean;
}

export interface ForkPlan {
  sourceRunId: string;
  at: number;
  agent: string;
  model: string;
  /** The record at the step, and what the edit writes there (`edited`), if anything. */
  record: { seq: number; name: string; kind: string };
  edited: { name: string; kind: string } | null;
  allowEffects: boolean;
  tools: PlannedTool[];
}

/** Records read back from the step to find the last model turn before it (its pending calls). */
const LOOK_BACK = 500;

export async function forkPlan(store: Journal, sourceRunId: string, options: ForkOptions): Promise<ForkPlan> {
  const prepared = await prepareFork(store, sourceRunId, options);
  const { at } = options;
  const window = await store.history(sourceRunId, { from: Math.max(1, at - LOOK_BACK), limit: Math.min(at, LOOK_BACK + 1) });
  const kept: JournalRecord[] = window.filter((record) => record.seq < at);
  const current = window.find((record) => record.seq === at) as JournalRecord;
  const edited = prepared.copy.edited;
  if (edited) kept.push({ ...current, ...edited });
  const pending = pendingTools(kept);
  const allowEffects = options.allowEffects === true;
  const tools = [...prepared.agent.tools.values()].map((tool): PlannedTool => {
    const effects = effectsOf(tool);
    return { name: tool.name, effects, pending: pending.has(tool.name), halts: effects === "external" && !allowEffects };
  });
  return {
    sourceRunId,
    at,
    agent: prepared.header.agent,
    model: prepared.modelName,
    record: { seq: current.seq, name: current.name, kind: current.kind },
    edited: edited ? { name: edited.name, kind: edited.kind } : null,
    allowEffects,
    tools,
  };
}

/** Tools called by the last model turn among `records` whose results are not among them. */
function pendingTools(records: readonly JournalRecord[]): Set<string> {
  const names = new Set(records.map((record) => record.name));
  const turn = records.findLast((record) => record.kind === "model" && /^turn:\d+$/.test(record.name));
  const pending = new Set<string>();
  if (!turn) return pending;
  const t = Number(turn.name.slice("turn:".length));
  const content = (turn.payload as ModelPayload | null)?.message?.content ?? [];
  let index = 0;
  for (const part of Array.isArray(content) ? content : []) {
    if (part.type !== "tool-call") continue;
    if (!names.has(resultName(callName(t, index)))) pending.add(part.toolName);
    index += 1;
  }
  return pending;
}
