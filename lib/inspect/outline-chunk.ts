/**
 * A run's outline and timeline in chunks, the way a server holds a big run: each page of records
 * is parsed and folded where that is cheap to do (a worker thread: `outlineChunk`), and comes back
 * packed (packed.ts) with its per-step columns; `ChunkedTimeline` strings the chunks together and
 * answers what the state, outline and chart routes ask (a TimelineView) without an object per
 * record. Pure data: no I/O.
 *
 * Invariants: chunks are appended in step order with no gap (chunk k + 1 starts where chunk k
 * ends); data once appended never changes, so a view taken earlier stays valid while more chunks
 * arrive, and reads only what it had.
 */
import type { JournalRecord } from "../journal/types";
import { barColumnsOf, turnColumnsOf, type BarColumns, type TurnColumns } from "./bar-columns";
import type { FlowNode } from "./flow";
import { outlineEntry, type OutlineEntry } from "./outline";
import { PackedItems, packList, type PackedList } from "./packed";
import { foldSteps, NO_STEPS, type Indexed, type StepTotals, type StepsOut, type TimelineView } from "./timeline";

export interface OutlineChunk {
  /** The chunk's first step. */
  from: number;
  /** Steps in the chunk. */
  count: number;
  /** The page's seqs broke off before its end: the holder and the database disagree (start over). */
  gap: boolean;
  entries: PackedList;
  /** The chunk's flowchart nodes, numbered on from the nodes before it. */
  nodes: PackedList;
  nodeAtStep: Int32Array;
  inputTokens: Float64Array;
  outputTokens: Float64Array;
  modelTurns: Int32Array;
  toolCalls: Int32Array;
  failedToolCalls: Int32Array;
  conversationSteps: Int32Array;
  toolResultSteps: Int32Array;
  childStarts: Array<[number, string]>;
  /** The chunk's waterfall bars and model turns, as numbers (the waterfall and cost read these, not `entries`). */
  bars: BarColumns;
  turns: TurnColumns;
  /** The totals after the chunk: where the next one starts. */
  totals: StepTotals;
}

/** The chunk of a page of records (ascending seqs) that follows `totals`. */
export function outlineChunk(records: readonly JournalRecord[], totals: StepTotals = NO_STEPS): OutlineChunk {
  const entries = records.map(outlineEntry);
  const count = entries.length;
  const out: StepsOut = {
    offset: totals.steps,
    nodeAtStep: new Int32Array(count),
    inputTokens: new Float64Array(count),
    outputTokens: new Float64Array(count),
    modelTurns: new Int32Array(count),
    toolCalls: new Int32Array(count),
    failedToolCalls: new Int32Array(count),
    entries: [],
    nodes: [],
    conversationSteps: [],
    toolResultSteps: [],
    childStarts: [],
  };
  const after = { ...totals };
  const whole = foldSteps(out, after, entries, 0, count);
  const folded = out.entries.length;
  return {
    from: totals.steps,
    count: folded,
    gap: !whole,
    entries: packList(out.entries),
    nodes: packList(out.nodes),
    nodeAtStep: out.nodeAtStep.slice(0, folded),
    inputTokens: out.inputTokens.slice(0, folded),
    outputTokens: out.outputTokens.slice(0, folded),
    modelTurns: out.modelTurns.slice(0, folded),
    toolCalls: out.toolCalls.slice(0, folded),
    failedToolCalls: out.failedToolCalls.slice(0, folded),
    conversationSteps: Int32Array.from(out.conversationSteps),
    toolResultSteps: Int32Array.from(out.toolResultSteps),
    childStarts: out.childStarts,
    bars: barColumnsOf(out.entries),
    turns: turnColumnsOf(out.entries),
    totals: after,
  };
}

type Column = "nodeAtStep" | "inputTokens" | "outputTokens" | "modelTurns" | "toolCalls" | "failedToolCalls";
const COLUMNS: readonly Column[] = ["nodeAtStep", "inputTokens", "outputTokens", "modelTurns", "toolCalls", "failedToolCalls"];

/** What a view of a chunked timeline holds: the columns as they were when it was taken. */
export interface ChunkedView extends TimelineView {
  entries: Indexed<OutlineEntry> & { slice(from: number, to: number): OutlineEntry[] };
  nodes: Indexed<FlowNode> & { slice(from: number, to: number): FlowNode[] };
  /** The packed chunks, for a worker that reads the whole outline (the aggregate) or every node (the flowchart's text). */
  entryLists: readonly PackedList[];
  nodeLists: readonly PackedList[];
  barLists: readonly BarColumns[];
  turnLists: readonly TurnColumns[];
}

/** A run's chunks strung together: appended to as the run is read, read through views. */
export class ChunkedTimeline {
  private readonly chunks: OutlineChunk[] = [];
  private columns: Record<Column, Int32Array | Float64Array> = {
    nodeAtStep: new Int32Array(0),
    inputTokens: new Float64Array(0),
    outputTokens: new Float64Array(0),
    modelTurns: new Int32Array(0),
    toolCalls: new Int32Array(0),
    failedToolCalls: new Int32Array(0),
  };
  private conversationSteps = new Int32Array(0);
  private conversationCount = 0;
  private toolResultSteps = new Int32Array(0);
  private toolResultCount = 0;
  private readonly childStarts: Array<[number, string]> = [];
  private last: StepTotals = { ...NO_STEPS };

  /** Steps held. */
  get length(): number {
    return this.last.steps;
  }

  /** Where the next chunk must start. */
  get totals(): StepTotals {
    return { ...this.last };
  }

  /** Appends the chunk that follows the last (false, and nothing kept, for one that does not). */
  append(chunk: OutlineChunk): boolean {
    if (chunk.from !== this.last.steps) return false;
    if (chunk.count === 0) return true;
    const length = this.last.steps + chunk.count;
    for (const name of COLUMNS) this.columns[name] = placed(this.columns[name], this.last.steps, chunk[name], length);
    this.conversationSteps = placed(this.conversationSteps, this.conversationCount, chunk.conversationSteps, this.conversationCount + chunk.conversationSteps.length);
    this.conversationCount += chunk.conversationSteps.length;
    this.toolResultSteps = placed(this.toolResultSteps, this.toolResultCount, chunk.toolResultSteps, this.toolResultCount + chunk.toolResultSteps.length);
    this.toolResultCount += chunk.toolResultSteps.length;
    for (const start of chunk.childStarts) this.childStarts.push(start);
    this.chunks.push(chunk);
    this.last = { ...chunk.totals };
    return true;
  }

  /** The timeline as it is now; later appends do not change it. */
  view(): ChunkedView {
    const length = this.last.steps;
    const chunks = [...this.chunks];
    const column = (name: Column) => this.columns[name].subarray(0, length);
    return {
      entries: new PackedItems<OutlineEntry>(chunks.map((chunk) => chunk.entries)),
      nodes: new PackedItems<FlowNode>(chunks.map((chunk) => chunk.nodes)),
      nodeAtStep: column("nodeAtStep"),
      inputTokens: column("inputTokens"),
      outputTokens: column("outputTokens"),
      modelTurns: column("modelTurns"),
      toolCalls: column("toolCalls"),
      failedToolCalls: column("failedToolCalls"),
      conversationSteps: this.conversationSteps.subarray(0, this.conversationCount),
      toolResultSteps: this.toolResultSteps.subarray(0, this.toolResultCount),
      childStarts: this.childStarts.slice(),
      completeStep: this.last.completeStep,
      entryLists: chunks.map((chunk) => chunk.entries),
      nodeLists: chunks.map((chunk) => chunk.nodes),
      barLists: chunks.map((chunk) => chunk.bars),
      turnLists: chunks.map((chunk) => chunk.turns),
    };
  }
}

/**
 * `values` written at `at` of `array`, grown (doubling) when it lacks room for `length` items.
 * A grown array is a new one: views taken before keep the old, whose items below `at` are the same.
 */
function placed<T extends Int32Array | Float64Array>(array: T, at: number, values: ArrayLike<number>, length: number): T {
  let target = array;
  if (length > array.length) {
    target = new (array.constructor as new (length: number) => T)(Math.max(length, array.length * 2, 1024));
    target.set(array.subarray(0, at));
  }
  target.set(values, at);
  return target;
}
