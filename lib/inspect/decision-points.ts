/**
 * The decision points of a run: each model step, followed by the tool calls it produced in content
 * order. A tool point is found by its position (`turn:<t>:call:<i>:result`), never by tool-call
 * id: models and SDKs assign those at random, so two independent runs never share them, while the
 * positions of two runs line up. Pure; reads stored payloads defensively.
 *
 * The diff works on `Point`s (`pointsOf`): one pass over the records, object literals, no text and
 * no hashing. It compares arguments structurally (equal.ts), which decides exactly what equal
 * hashes decided, and an entry hashes arguments only when its detail is built. `decisionPoints`
 * gives the public `DecisionPoint`s, with their hashes.
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
  argsHash: string;
  status: ToolStatus;
  output: unknown;
}

export type DecisionPoint = ModelDecision | ToolDecision;
export type DecisionKind = DecisionPoint["kind"];

/** A tool call as the diff reads it from a model step's content: no hash (see the top of this file). */
interface ToolCall {
  toolName: string;
  args: unknown;
}

/** A part of a model message's content, read defensively. */
export interface ContentPart {
  type?: unknown;
  toolName?: unknown;
  args?: unknown;
  text?: unknown;
}

export interface ModelPoint extends Omit<ModelDecision, "toolCalls"> {
  /** The message's content, where its tool calls are read when needed (callsOf, nextCall): no copies. */
  content: readonly ContentPart[];
  /** How many tool calls the content holds. */
  calls: number;
}

export interface ToolPoint extends Omit<ToolDecision, "argsHash"> {
  /** The arguments the tool ran with (its result's; the model's call's when the result has none). */
  args: unknown;
}

/**
 * A decision point as the diff holds it: object literals. A literal's hidden class lives on in its
 * boilerplate, while a class instance's is freed with the last instance (between two diffs), and
 * the code optimised for it thrown away; literals are also quicker to make than instances.
 */
export type Point = ModelPoint | ToolPoint;

/** The index of the first tool-call part of `content` at or after `from`; -1 when there is none. */
export function nextCall(content: readonly ContentPart[], from: number): number {
  for (let index = from; index < content.length; index += 1) if (content[index]?.type === "tool-call") return index;
  return -1;
}

export const callName = (part: ContentPart): string => String(part.toolName ?? "");
export const callArgs = (part: ContentPart): unknown => part.args ?? null;

/** A model point's tool calls, in content order (a new list each time). */
export function callsOf(point: ModelPoint): ToolCall[] {
  const calls: ToolCall[] = [];
  for (let index = nextCall(point.content, 0); index >= 0; index = nextCall(point.content, index + 1)) {
    const part = point.content[index] as ContentPart;
    calls.push({ toolName: callName(part), args: callArgs(part) });
  }
  return calls;
}

export function callSignature(call: ToolCall): ToolCallSignature {
  return { toolName: call.toolName, argsHash: stableHash(call.args), args: call.args };
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
function addModel(points: Point[], record: JournalRecord, step: number): void {
  const raw = (record.payload as Partial<ModelPayload> | null)?.message?.content ?? [];
  // Stored content is an array; anything else iterable is read as one.
  const content = (Array.isArray(raw) ? raw : Array.from(raw as Iterable<unknown>)) as ContentPart[];
  let text = "";
  let calls = 0;
  for (let index = 0; index < content.length; index += 1) {
    const part = content[index];
    if (part?.type === "text" && typeof part.text === "string") text += part.text;
    else if (part?.type === "tool-call") calls += 1;
  }
  points.push({ kind: "model", index: points.length, step, seq: record.seq, text, content, calls });
  for (let at = nextCall(content, 0), callIndex = 0; at >= 0; at = nextCall(content, at + 1), callIndex += 1) {
    const part = content[at] as ContentPart;
    // The model's call until its result record fills the point in.
    points.push({ kind: "tool", index: points.length, step, seq: -1, callIndex, toolName: callName(part), args: callArgs(part), status: "no_result", output: null });
  }
}

function fillResult(tool: ToolPoint, record: JournalRecord, denied: boolean): void {
  const payload = (record.payload ?? null) as Partial<ToolResultPayload> | null;
  tool.seq = record.seq;
  if (typeof payload?.toolName === "string") tool.toolName = payload.toolName;
  // The arguments the tool ran with (validated by its schema): usually the model's own.
  if (payload && "args" in payload) tool.args = payload.args ?? null;
  tool.output = payload?.result ?? null;
  tool.status = denied ? "denied" : payload?.isError === true ? "failed" : "succeeded";
}

/**
 * Fills in call `call` of the model point at `at` from its result or approval record. Names are
 * unique per run: a call has one result and one approval at most. `denied[step][call]` holds a
 * denial met before its result.
 */
function attach(points: Point[], denied: boolean[][], at: number, call: number, record: JournalRecord): void {
  const model = points[at] as ModelPoint;
  if (call >= model.calls) return;
  const tool = points[at + 1 + call] as ToolPoint;
  if (record.kind !== "approval") fillResult(tool, record, denied[model.step]?.[call] === true);
  else if ((record.payload as Partial<ApprovalPayload> | null)?.approved === false) {
    // A denied call still has a result record; without one it stays `no_result`.
    if (tool.status === "no_result") (denied[model.step] ??= [])[call] = true;
    else tool.status = "denied";
  }
}

/** The points regrouped by step (each model point with its tool points), renumbered. Stable. */
function inStepOrder(points: Point[]): Point[] {
  const groups: Point[][] = [];
  for (const point of points) {
    if (point.kind === "model") groups.push([point]);
    else (groups[groups.length - 1] as Point[]).push(point);
  }
  groups.sort((a, b) => (a[0] as Point).step - (b[0] as Point).step);
  const ordered = groups.flat();
  ordered.forEach((point, index) => (point.index = index));
  return ordered;
}

/**
 * A pass over one run's records in progress: `pointsOf` in steps, so that a reader can fold a
 * 200,000-record run a page at a time as the pages arrive (the server's projection pool). Only its
 * own pass changes it.
 */
export interface PointsPass {
  points: Point[];
  /** modelAt[step]: where the step's model point is in `points`; its tool points follow it. */
  modelAt: number[];
  denied: boolean[][];
  /** Results and approvals met before their model step: not the loop's order (foreign or imported data). */
  early: JournalRecord[] | undefined;
  lastStep: number;
  ordered: boolean;
}

export function startPoints(): PointsPass {
  return { points: [], modelAt: [], denied: [], early: undefined, lastStep: -1, ordered: true };
}

/** The only kinds of record the decision points are made of: a reader may fetch just these. */
export const DECISION_KINDS: readonly string[] = ["model", "tool_result", "approval"];
const decisionKinds = new Set(DECISION_KINDS);

/** Reads `records[from]` … `records[to - 1]` (the records after those already read, in seq order) into the pass. */
export function readPoints(pass: PointsPass, records: readonly JournalRecord[], from: number, to: number): void {
  const { points, modelAt, denied } = pass;
  for (let index = from; index < to; index += 1) {
    const record = records[index] as JournalRecord;
    const kind = record.kind;
    if (!decisionKinds.has(kind)) continue;
    if (!parseName(record.name)) continue;
    if (kind === "model") {
      if (parsed.call >= 0) continue;
      if (parsed.step < pass.lastStep) pass.ordered = false;
      pass.lastStep = Math.max(pass.lastStep, parsed.step);
      modelAt[parsed.step] = points.length;
      addModel(points, record, parsed.step);
    } else if (parsed.call >= 0 && parsed.suffix === (kind === "approval" ? "approval" : "result")) {
      const at = modelAt[parsed.step];
      if (at === undefined) (pass.early ??= []).push(record);
      else attach(points, denied, at, parsed.call, record);
    }
  }
}

/** The pass's points, once every record has been read. */
export function finishPoints(pass: PointsPass): Point[] {
  const { points, modelAt, denied } = pass;
  for (const record of pass.early ?? []) {
    parseName(record.name);
    const at = modelAt[parsed.step];
    if (at !== undefined) attach(points, denied, at, parsed.call, record);
  }
  // Turns are written in order; regrouping keeps foreign or imported data in step order too.
  return pass.ordered ? points : inStepOrder(points);
}

/** The points of one run's records, as the diff holds them (its own records: a sub-agent's decisions are in its run). */
export function pointsOf(records: readonly JournalRecord[]): Point[] {
  const pass = startPoints();
  readPoints(pass, records, 0, records.length);
  return finishPoints(pass);
}

/** The decision points of one run's records, with their arguments hashes. */
export function decisionPoints(records: readonly JournalRecord[]): DecisionPoint[] {
  return pointsOf(records).map((point): DecisionPoint => {
    if (point.kind === "model") {
      const { kind, index, step, seq, text } = point;
      return { kind, index, step, seq, text, toolCalls: callsOf(point).map(callSignature) };
    }
    const { kind, index, step, seq, callIndex, toolName, args, status, output } = point;
    return { kind, index, step, seq, callIndex, toolName, argsHash: stableHash(args), status, output };
  });
}
