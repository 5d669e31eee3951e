/**
 * Packed lists: the JSON texts of many small items in one UTF-8 buffer, with a table of where
 * each starts. A server holds a 200,000-entry outline or diff this way, as two buffers instead of
 * hundreds of thousands of objects (nothing for its collector to walk), hands it between threads
 * without copying (the buffers are shared), and decodes only the window an answer needs.
 *
 * Invariants: item i is the JSON text at bytes [offsets[i], offsets[i + 1] - 1), each item is
 * followed by one "," (so a run of items is a JSON array's body), and a packed list is never
 * written after packList returns: any thread may read it at any time.
 */

export interface PackedList {
  readonly count: number;
  /** The items' JSON texts, each followed by ",". */
  readonly bytes: Uint8Array;
  /** count + 1 byte offsets: item i starts at offsets[i]; offsets[count] is the end. */
  readonly offsets: Uint32Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Shared memory where the runtime has it (Node, worker threads), plain memory otherwise. */
export function sharedMemory(bytes: number): ArrayBufferLike {
  return typeof SharedArrayBuffer === "function" ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
}

/** A packed list of `items` (each must be JSON-serialisable; undefined packs as null). */
export function packList(items: readonly unknown[]): PackedList {
  const texts = items.map((item) => JSON.stringify(item) ?? "null");
  let capacity = 0;
  for (const text of texts) capacity += text.length * 3 + 1;
  const scratch = new Uint8Array(capacity);
  const offsets = new Uint32Array(sharedMemory(4 * (texts.length + 1)));
  let at = 0;
  for (let index = 0; index < texts.length; index += 1) {
    offsets[index] = at;
    at += encoder.encodeInto(texts[index] as string, scratch.subarray(at)).written;
    scratch[at] = 44; // ","
    at += 1;
  }
  offsets[texts.length] = at;
  const bytes = new Uint8Array(sharedMemory(at));
  bytes.set(scratch.subarray(0, at));
  return { count: texts.length, bytes, offsets };
}

/** Item `index` (0 ≤ index < count). */
export function packedItem<T>(list: PackedList, index: number): T {
  const start = list.offsets[index] as number;
  const end = (list.offsets[index + 1] as number) - 1;
  return JSON.parse(decoder.decode(list.bytes.subarray(start, end))) as T;
}

/** Items [from, to), clamped to the list: one decode and one parse for the whole range. */
export function packedItems<T>(list: PackedList, from: number, to: number): T[] {
  const start = Math.max(0, Math.min(from, list.count));
  const end = Math.max(start, Math.min(to, list.count));
  if (end === start) return [];
  const text = decoder.decode(list.bytes.subarray(list.offsets[start] as number, (list.offsets[end] as number) - 1));
  return JSON.parse(`[${text}]`) as T[];
}

/** Every item of the list. */
export function unpackList<T>(list: PackedList): T[] {
  return packedItems<T>(list, 0, list.count);
}

/** The index of the last of `starts` (ascending) at or below `value`; -1 when there is none. */
function lastAtOrBelow(starts: readonly number[], value: number): number {
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if ((starts[middle] as number) <= value) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** Packed lists read as one list, laid end to end: item i of the whole is item i − starts[k] of list k. */
export class PackedItems<T> {
  private readonly starts: number[] = [];
  readonly length: number;

  constructor(private readonly lists: readonly PackedList[]) {
    let start = 0;
    for (const list of lists) {
      this.starts.push(start);
      start += list.count;
    }
    this.length = start;
  }

  at(index: number): T | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    const chunk = lastAtOrBelow(this.starts, index);
    return packedItem<T>(this.lists[chunk] as PackedList, index - (this.starts[chunk] as number));
  }

  /** Items [from, to), decoded a chunk's range at a time. */
  slice(from: number, to: number): T[] {
    const end = Math.min(to, this.length);
    const items: T[] = [];
    for (let chunk = Math.max(0, lastAtOrBelow(this.starts, from)); chunk < this.lists.length; chunk += 1) {
      const start = this.starts[chunk] as number;
      if (start >= end) break;
      const list = this.lists[chunk] as PackedList;
      for (const item of packedItems<T>(list, Math.max(0, from - start), end - start)) items.push(item);
    }
    return items;
  }
}
