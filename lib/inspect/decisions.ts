/**
 * The decision points of a run: each model step, followed by the tool calls it produced in content
 * order. A tool point is found by its position (`turn:<t>:call:<i>:result`), never by tool-call
 * id: models and SDKs assign those at random, so two independent runs never share them, while the
 * positions of two runs line up. Pure; reads stored payloads defensively.
 *
 * Cost: one pass over the records, a few small objects per point, no text and no hashing. An
 * arguments hash is computed when it is first read (a diff entry's detail, JSON): the diff itself
 * compares arguments structurally (equal.ts), which decides exactly what equal hashes decided.
 */
import type { ApprovalPayload, ModelPayload, ToolResultPayload } from "../agent/payloads";
import { stableHash } from "../journal/canonical";
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
  /** The arguments the tool ran with (its result's; the model's when the result has none). */
  args: unknown;
  argsHash: string;
  status: ToolStatus;
  output: unknown;
}

export type DecisionPoint = ModelDecision | ToolDecision;
export type DecisionKind = DecisionPoint["kind"];

/**
 * A tool call as the model asked for it. Points are small on purpose (a diff holds 200,000 of them
 * at once, and every byte is copied by the young-generation collector): `kind` lives on the
 * prototype, and a hash is computed on each read rather than kept (an entry keeps its detail).
 */
export class ToolCall implements ToolCallSignature {
  constructor(
    readonly toolName: string,
    readonly args: unknown,
  ) {}

  get argsHash(): string {
    return stableHash(this.args);
  }

  toJSON(): ToolCallSignature {
    return { toolName: this.toolName, argsHash: this.argsHash, args: this.args };
  }
}

class ModelPoint implements ModelDecision {
  constructor(
    public index: number,
    readonly step: number,
    readonly seq: number,
    readonly text: string,
    readonly toolCalls: ToolCall[],
  ) {}

  get kind(): "model" {
    return "model";
  }

  toJSON(): ModelDecision {
    const { kind, index, step, seq, text, toolCalls } = this;
    return { kind, index, step, seq, text, toolCalls };
  }
}

/** A tool call's point: the model's call until its result record fills it in. */
class ToolPoint implements ToolDecision {
  seq = -1;
  toolName: string;
  args: unknown;
  status: ToolStatus = "no_result";
  output: unknown = null;

  constructor(
    public index: number,
    readonly step: number,
    readonly callIndex: number,
    call: ToolCall,
  ) {
    this.toolName = call.toolName;
    this.args = call.args;
  }

  get kind(): "tool" {
    return "tool";
  }

  get argsHash(): string {
    return stableHash(this.args);
  }

  result(record: JournalRecord, denied: boolean): void {
    const payload = (record.payload ?? null) as Partial<ToolResultPayload> | null;
    this.seq = record.seq;
    if (typeof payload?.toolName === "string") this.toolName = payload.toolName;
    // The arguments the tool ran with (validated by its schema): usually the model's own.
    if (payload && "args" in payload) this.args = payload.args ?? null;
    this.output = payload?.result ?? null;
    this.status = denied ? "denied" : payload?.isError === true ? "failed" : "succeeded";
  }

  toJSON(): Omit<ToolDecision, "args"> {
    const { kind, index, step, seq, callIndex, toolName, argsHash, status, output } = this;
    return { kind, index, step, seq, callIndex, toolName, argsHash, status, output };
  }
}

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

/** Appends a model step's point and one point per tool call in its content. */
function addModel(points: DecisionPoint[], record: JournalRecord, step: number): void {
  const content = ((record.payload as Partial<ModelPayload> | null)?.message?.content ?? []) as CallContent[];
  let text = "";
  let calls: ToolCall[] = NO_CALLS;
  for (const part of content) {
    if (part?.type === "text" && typeof part.text === "string") text += part.text;
    else if (part?.type === "tool-call") {
      const call = new ToolCall(String(part.toolName ?? ""), part.args ?? null);
      // Exact sizes: an array grown by push reserves room for 17.
      calls = calls === NO_CALLS ? [call] : [...calls, call];
    }
  }
  points.push(new ModelPoint(points.length, step, record.seq, text, calls === NO_CALLS ? [] : calls));
  for (let callIndex = 0; callIndex < calls.length; callIndex += 1) points.push(new ToolPoint(points.length, step, callIndex, calls[callIndex] as ToolCall));
}

const NO_CALLS: ToolCall[] = [];

/** How the records of a run's tool calls fill in their points. */
class Calls {
  /** denied[step][call]: a denial met before its result. */
  #denied: boolean[][] = [];

  constructor(readonly points: DecisionPoint[]) {}

  /** Fills in call `call` of the model point at `at` from its result or approval record. */
  attach(at: number, call: number, record: JournalRecord): void {
    const model = this.points[at] as ModelPoint;
    if (call >= model.toolCalls.length) return;
    const tool = this.points[at + 1 + call] as ToolPoint;
    if (record.kind !== "approval") tool.result(record, this.#denied[model.step]?.[call] === true);
    else if ((record.payload as Partial<ApprovalPayload> | null)?.approved === false) {
      // A denied call still has a result record; without one it stays `no_result`.
      if (tool.status === "no_result") (this.#denied[model.step] ??= [])[call] = true;
      else tool.status = "denied";
    }
  }
}

/** The points regrouped by step (each model point with its tool points), renumbered. Stable. */
function inStepOrder(points: DecisionPoint[]): DecisionPoint[] {
  const groups: DecisionPoint[][] = [];
  for (const point of points) {
    if (point.kind === "model") groups.push([point]);
    else (groups[groups.length - 1] as DecisionPoint[]).push(point);
  }
  groups.sort((a, b) => (a[0] as DecisionPoint).step - (b[0] as DecisionPoint).step);
  const ordered = groups.flat();
  ordered.forEach((point, index) => (point.index = index));
  return ordered;
}

/** The decision points of one run's records (its own records: a sub-agent's decisions are in its run). */
export function decisionPoints(records: readonly JournalRecord[]): DecisionPoint[] {
  const points: DecisionPoint[] = [];
  // modelAt[step]: where the step's model point is in `points`; its tool points follow it.
  const modelAt: number[] = [];
  const calls = new Calls(points);
  // Results and approvals met before their model step: not the loop's order (foreign or imported data).
  let early: JournalRecord[] | undefined;
  let lastStep = -1;
  let ordered = true;
  for (const record of records) {
    const kind = record.kind;
    if (kind !== "model" && kind !== "tool_result" && kind !== "approval") continue;
    if (!parseName(record.name)) continue;
    if (kind === "model") {
      if (parsed.call >= 0) continue;
      if (parsed.step < lastStep) ordered = false;
      lastStep = Math.max(lastStep, parsed.step);
      modelAt[parsed.step] = points.length;
      addModel(points, record, parsed.step);
    } else if (parsed.call >= 0 && parsed.suffix === (kind === "approval" ? "approval" : "result")) {
      const at = modelAt[parsed.step];
      if (at === undefined) (early ??= []).push(record);
      else calls.attach(at, parsed.call, record);
    }
  }
  for (const record of early ?? []) {
    parseName(record.name);
    const at = modelAt[parsed.step];
    if (at !== undefined) calls.attach(at, parsed.call, record);
  }
  // Turns are written in order; regrouping keeps foreign or imported data in step order too.
  return ordered ? points : inStepOrder(points);
}
