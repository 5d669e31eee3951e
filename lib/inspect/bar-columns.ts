/**
 * What the waterfall and a run's cost need of its outline, as columns: the bars (model turns and
 * tool results with both times) and the model turns (model and usage). A worker folds them a page
 * at a time beside the outline (outline-chunk.ts), so a cold waterfall or cost reads numbers, not
 * the whole outline's JSON. Pure data: no I/O.
 *
 * Invariants: a chunk's bars and turns are in seq order; `modelIndex[i]` indexes `models` (-1: the
 * turn named no model); the arrays sit in shared memory where the runtime has it (they cross
 * threads without a copy) and are never written after they are made.
 */
import type { PricedTurn } from "../agent/pricing";
import type { OutlineEntry } from "./outline";
import { sharedMemory } from "./packed";

/** Bits of a bar's flags. */
export const BAR_MODEL = 1;
export const BAR_FAILED = 2;
export const BAR_TIMED = 4;
export const BAR_CRITICAL = 8;

export interface BarColumns {
  count: number;
  seqs: Int32Array;
  /** Epoch milliseconds. */
  starts: Float64Array;
  ends: Float64Array;
  flags: Uint8Array;
}

export interface TurnColumns {
  count: number;
  models: string[];
  modelIndex: Int32Array;
  inputTokens: Float64Array;
  outputTokens: Float64Array;
}

function shared<T extends Int32Array | Float64Array | Uint8Array>(make: new (buffer: ArrayBufferLike) => T, bytesEach: number, values: ArrayLike<number>): T {
  const array = new make(sharedMemory(bytesEach * values.length));
  array.set(values);
  return array;
}

/** The entry draws a bar: a model turn or tool result whose start and end are known. */
function drawsBar(entry: OutlineEntry): boolean {
  return (entry.kind === "model" || entry.kind === "tool_result") && entry.startMs !== undefined && entry.endMs !== undefined;
}

/** The bars of outline entries (ascending seqs). */
export function barColumnsOf(entries: readonly OutlineEntry[]): BarColumns {
  const seqs: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const flags: number[] = [];
  for (const entry of entries) {
    if (!drawsBar(entry)) continue;
    const start = entry.startMs as number;
    seqs.push(entry.seq);
    starts.push(start);
    ends.push(Math.max(start, entry.endMs as number));
    flags.push((entry.kind === "model" ? BAR_MODEL : 0) | (entry.failed === true ? BAR_FAILED : 0) | (entry.timed === true ? BAR_TIMED : 0));
  }
  return {
    count: seqs.length,
    seqs: shared(Int32Array, 4, seqs),
    starts: shared(Float64Array, 8, starts),
    ends: shared(Float64Array, 8, ends),
    flags: shared(Uint8Array, 1, flags),
  };
}

/** The model turns of outline entries. */
export function turnColumnsOf(entries: readonly OutlineEntry[]): TurnColumns {
  const models: string[] = [];
  const indexOf = new Map<string, number>();
  const modelIndex: number[] = [];
  const inputTokens: number[] = [];
  const outputTokens: number[] = [];
  for (const entry of entries) {
    if (entry.kind !== "model") continue;
    let index = -1;
    if (entry.model) {
      index = indexOf.get(entry.model) ?? models.push(entry.model) - 1;
      indexOf.set(entry.model, index);
    }
    modelIndex.push(index);
    inputTokens.push(entry.inputTokens ?? 0);
    outputTokens.push(entry.outputTokens ?? 0);
  }
  return {
    count: modelIndex.length,
    models,
    modelIndex: shared(Int32Array, 4, modelIndex),
    inputTokens: shared(Float64Array, 8, inputTokens),
    outputTokens: shared(Float64Array, 8, outputTokens),
  };
}

/** Every model turn of the chunks, in order, as runCost reads them. */
export function* turnsOf(chunks: readonly TurnColumns[]): Iterable<PricedTurn> {
  for (const chunk of chunks) {
    for (let index = 0; index < chunk.count; index += 1) {
      const model = chunk.models[chunk.modelIndex[index] as number];
      yield { model, inputTokens: chunk.inputTokens[index], outputTokens: chunk.outputTokens[index] };
    }
  }
}
