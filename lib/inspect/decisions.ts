/**
 * The decision points of a run: each model step, followed by the tool calls it produced in content
 * order. A tool point is found by its position (`turn:<t>:call:<i>:result`), never by tool-call
 * id: models and SDKs assign those at random, so two independent runs never share them, while the
 * positions of two runs line up. Pure; reads stored payloads defensively.
 */
import type { ApprovalPayload, ModelPayload, ToolResultPayload } from "../agent/payloads";
import { canonicalJson, stableHash } from "../journal/canonical";
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

/** The decision points of one run's records (its own records: a sub-agent's decisions are in its run). */
export function decisionPoints(records: readonly JournalRecord[]): DecisionPoint[] {
  const outcomes = new Map<string, JournalRecord>();
  const models: Array<{ record: JournalRecord; step: number }> = [];
  for (const record of records) {
    if (record.kind === "tool_result" || record.kind === "approval") outcomes.set(record.name, record);
    else if (record.kind === "model" && record.name.startsWith("turn:")) {
      const step = Number(record.name.slice(5));
      if (Number.isInteger(step)) models.push({ record, step });
    }
  }
  // Turns are written in order; sorting keeps foreign or imported data in step order too.
  models.sort((a, b) => a.step - b.step);
  const points: DecisionPoint[] = [];
  for (const { record, step } of models) {
    const content = ((record.payload as Partial<ModelPayload> | null)?.message?.content ?? []) as CallContent[];
    let text = "";
    const calls: ToolCallSignature[] = [];
    for (const part of content) {
      if (part?.type === "text" && typeof part.text === "string") text += part.text;
      else if (part?.type === "tool-call") calls.push({ toolName: String(part.toolName ?? ""), argsHash: stableHash(part.args ?? null), args: part.args ?? null });
    }
    points.push({ kind: "model", index: points.length, step, seq: record.seq, text, toolCalls: calls });
    for (const [callIndex, call] of calls.entries()) {
      const prefix = `turn:${step}:call:${callIndex}`;
      const result = outcomes.get(`${prefix}:result`);
      const payload = (result?.payload ?? null) as Partial<ToolResultPayload> | null;
      const approval = outcomes.get(`${prefix}:approval`)?.payload as Partial<ApprovalPayload> | undefined;
      const ranWith = payload && "args" in payload ? payload.args : call.args;
      points.push({
        kind: "tool",
        index: points.length,
        step,
        seq: result?.seq ?? -1,
        callIndex,
        toolName: typeof payload?.toolName === "string" ? payload.toolName : call.toolName,
        // The arguments the tool ran with (validated); the model's own when they are the same JSON.
        argsHash: ranWith === call.args || canonicalJson(ranWith) === canonicalJson(call.args) ? call.argsHash : stableHash(ranWith ?? null),
        status: !result ? "no_result" : approval?.approved === false ? "denied" : payload?.isError === true ? "failed" : "succeeded",
        output: result ? (payload?.result ?? null) : null,
      });
    }
  }
  return points;
}
