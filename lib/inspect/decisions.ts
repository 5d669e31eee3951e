/**
 * The decision points of a run: each model step, followed by the tool calls it produced in content
 * order. A tool point is found by its position (`turn:<t>:call:<i>:result`), never by tool-call
 * id: models and SDKs assign those at random, so two independent runs never share them, while the
 * positions of two runs line up. Pure; reads stored payloads defensively.
 */
import type { ApprovalPayload, ModelPayload, ToolResultPayload } from "../agent/payloads";
import { canonicalJson, hashCanonical, plainEqual, sameJson } from "../journal/canonical";
import type { JournalRecord } from "../journal/types";

export interface ToolCallSignature {
  toolName: string;
  /** Stable hash of the arguments' canonical JSON: key order never matters. */
  argsHash: string;
  args: unknown;
}

/** How a tool decision ended. `no_result`: none recorded (the run paused, halted or stopped there). */
export type ToolStatus = "succeeded" | "failed" | "denied" | "no_result";

interface PointBase {
  /** Position in the run's decision sequence. */
  index: number;
  /** The model step (turn) the decision belongs to. */
  step: number;
  /** The seq of the record behind it; -1 for a tool call without a result. */
  seq: number;
}

export interface ModelDecision extends PointBase {
  kind: "model";
  text: string;
  toolCalls: ToolCallSignature[];
}

export interface ToolDecision extends PointBase {
  kind: "tool";
  /** Position of the call in its model step's content. */
  callIndex: number;
  toolName: string;
  argsHash: string;
  status: ToolStatus;
  output: unknown;
}

export type DecisionPoint = ModelDecision | ToolDecision;
export type DecisionKind = DecisionPoint["kind"];

interface CallContent {
  type?: unknown;
  toolName?: unknown;
  args?: unknown;
  text?: unknown;
}

/** What parseName read: reused across calls, since a diff parses every record name. */
const parsed = { step: -1, call: -1, suffix: "" };

/** Reads the digits at `from` into `parsed[field]`; the index after them, or -1 when there are none. */
function integerAt(name: string, from: number, field: "step" | "call"): number {
  let value = 0;
  let at = from;
  for (; at < name.length; at += 1) {
    const digit = name.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  parsed[field] = value;
  return at === from ? -1 : at;
}

/** Parses `turn:<t>` (call -1) or `turn:<t>:call:<i>:<suffix>` into `parsed`; false for any other name. */
function parseName(name: string): boolean {
  if (!name.startsWith("turn:")) return false;
  const afterStep = integerAt(name, 5, "step");
  if (afterStep < 0) return false;
  parsed.call = -1;
  parsed.suffix = "";
  if (afterStep === name.length) return true;
  if (!name.startsWith(":call:", afterStep)) return false;
  const afterCall = integerAt(name, afterStep + 6, "call");
  if (afterCall < 0 || name.charCodeAt(afterCall) !== 58) return false;
  parsed.suffix = name.slice(afterCall + 1);
  return true;
}

export interface DecisionOptions {
  /**
   * Another run's points (a diff's A when this is its B): a call whose arguments equal that run's
   * call at the same place takes its hash instead of canonicalising and hashing again. A hint only:
   * hashes are reused for equal arguments, wherever the points sit.
   */
  reference?: readonly DecisionPoint[];
}

function modelsByStep(points: readonly DecisionPoint[] | undefined): ModelDecision[] {
  const byStep: ModelDecision[] = [];
  for (const point of points ?? []) if (point.kind === "model") byStep[point.step] = point;
  return byStep;
}

/** The decision points of one run's records (its own records: a sub-agent's decisions are in its run). */
export function decisionPoints(records: readonly JournalRecord[], options: DecisionOptions = {}): DecisionPoint[] {
  const reference = modelsByStep(options.reference);
  // results[step][call] and approvals[step][call]: found by position, never by tool-call id.
  const results: JournalRecord[][] = [];
  const approvals: JournalRecord[][] = [];
  const models: Array<{ record: JournalRecord; step: number }> = [];
  for (const record of records) {
    if (record.kind !== "model" && record.kind !== "tool_result" && record.kind !== "approval") continue;
    if (!parseName(record.name)) continue;
    if (record.kind === "model") {
      if (parsed.call < 0) models.push({ record, step: parsed.step });
    } else if (parsed.call >= 0 && parsed.suffix === (record.kind === "approval" ? "approval" : "result")) {
      const table = record.kind === "approval" ? approvals : results;
      (table[parsed.step] ??= [])[parsed.call] = record;
    }
  }
  // Turns are written in order; sorting keeps foreign or imported data in step order too.
  if (models.some((model, index) => index > 0 && (models[index - 1] as { step: number }).step > model.step)) models.sort((a, b) => a.step - b.step);
  const points: DecisionPoint[] = [];
  for (const { record, step } of models) {
    const content = ((record.payload as Partial<ModelPayload> | null)?.message?.content ?? []) as CallContent[];
    let text = "";
    const calls: ToolCallSignature[] = [];
    for (const part of content) {
      if (part?.type === "text" && typeof part.text === "string") text += part.text;
      else if (part?.type === "tool-call") {
        const args = part.args ?? null;
        const same = reference[step]?.toolCalls[calls.length];
        calls.push({ toolName: String(part.toolName ?? ""), argsHash: same && plainEqual(same.args, args) ? same.argsHash : hashCanonical(canonicalJson(args)), args });
      }
    }
    points.push({ kind: "model", index: points.length, step, seq: record.seq, text, toolCalls: calls });
    for (let callIndex = 0; callIndex < calls.length; callIndex += 1) {
      const call = calls[callIndex] as ToolCallSignature;
      const result = results[step]?.[callIndex];
      const payload = (result?.payload ?? null) as Partial<ToolResultPayload> | null;
      const approval = approvals[step]?.[callIndex]?.payload as Partial<ApprovalPayload> | undefined;
      // The arguments the tool ran with (validated by its schema): usually the model's own.
      const ranWith = payload && "args" in payload ? (payload.args ?? null) : call.args;
      const hash = ranWith === call.args || sameJson(ranWith, call.args) ? call.argsHash : hashCanonical(canonicalJson(ranWith));
      points.push({
        kind: "tool",
        index: points.length,
        step,
        seq: result?.seq ?? -1,
        callIndex,
        toolName: typeof payload?.toolName === "string" ? payload.toolName : call.toolName,
        argsHash: hash,
        status: !result ? "no_result" : approval?.approved === false ? "denied" : payload?.isError === true ? "failed" : "succeeded",
        output: result ? (payload?.result ?? null) : null,
      });
    }
  }
  return points;
}
