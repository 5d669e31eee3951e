/**
 * How a replay treats memory. A run's `turn:0:memctx` record says what memory composed in front of
 * the run's own input. By default a replay sees exactly that again (the recorded composition, not
 * a fresh recall: the memory table may have changed since). With stripMemoryContext it keeps only
 * the turn's own incoming messages and drops what memory composed in front of them.
 *
 * Honest boundaries: a run without a usable :memctx record cannot be stripped (NoMemoryContextError),
 * and the system text is never surgically edited: working memory put there stays, and the
 * StripDisclosure says how much, so callers can show it.
 */
import type { AgentMemory, MemoryComposition, MemoryContextPayload } from "../agent/memory";
import { readMemoryContext } from "../agent/memory";
import { inputMessages, type Message, type RunInput } from "../agent/messages";
import type { HeaderPayload } from "../agent/payloads";
import { canonicalJson } from "../journal/canonical";
import { memoryContextName } from "../journal/names";
import type { Journal } from "../journal/ports";
import { NoMemoryContextError } from "./errors";

/** What a memory-off replay dropped and kept; the result carries it so the UI and CLI can show it. */
export interface StripDisclosure {
  /** The turn's own incoming messages, kept. */
  keptMessages: number;
  /** Messages memory had composed in front of them, dropped. */
  droppedMessages: number;
  droppedMemoryIds: string[];
  /** Always false: the frozen system text is replayed as recorded, never edited. */
  systemTextEdited: false;
  /** Characters of working memory that stayed in the system text. */
  workingMemoryChars: number;
  /** True when working memory stayed in the system text: memory may still have reached the model. */
  workingMemoryRetained: boolean;
  message: string;
}

interface MemoryPlan {
  input: RunInput;
  memory?: AgentMemory;
  disclosure?: StripDisclosure;
}

async function recordedMemoryContext(journal: Journal, runId: string): Promise<{ found: boolean; context?: MemoryContextPayload }> {
  const record = await journal.record(runId, memoryContextName(0));
  if (!record) return { found: false };
  return { found: true, context: record.kind === "signal" ? readMemoryContext(record.payload) : undefined };
}

function composer(composition: MemoryComposition): AgentMemory {
  return { compose: () => structuredClone(composition) };
}

/**
 * The replay's input and memory. `systemOverride`: a replay with a new system text drops the
 * recorded one, working memory included (a new prompt replaces the whole text).
 */
export async function planMemory(journal: Journal, runId: string, header: HeaderPayload, options: { strip: boolean; systemOverride?: string }): Promise<MemoryPlan> {
  const { found, context } = await recordedMemoryContext(journal, runId);
  const keepSystem = options.systemOverride === undefined;
  if (!options.strip) {
    if (!context) return { input: header.input };
    const frozen: MemoryComposition = {
      composed: context.composed,
      memories: context.memories,
      workingMemoryChars: keepSystem ? context.workingMemoryChars : 0,
      ...(keepSystem && context.system !== undefined ? { system: context.system } : {}),
      frozenFrom: context.frozenFrom ?? runId,
    };
    return { input: header.input, memory: composer(frozen) };
  }
  if (!context) throw new NoMemoryContextError(runId, found ? "its turn:0:memctx record is malformed" : "it has no turn:0:memctx record");
  const seen: Message[] = [...context.composed, ...inputMessages(header.input)];
  if (context.incomingCount > seen.length) throw new NoMemoryContextError(runId, `it counts ${context.incomingCount} incoming messages where the turn had ${seen.length}`);
  const own = seen.slice(seen.length - context.incomingCount);
  const workingMemoryChars = keepSystem ? context.workingMemoryChars : 0;
  const stripped: MemoryComposition = {
    composed: [],
    memories: [],
    workingMemoryChars,
    ...(keepSystem && context.system !== undefined ? { system: context.system } : {}),
    strippedFrom: runId,
  };
  const dropped = seen.length - own.length;
  const disclosure: StripDisclosure = {
    keptMessages: own.length,
    droppedMessages: dropped,
    droppedMemoryIds: context.memories.map((memory) => memory.id),
    systemTextEdited: false,
    workingMemoryChars,
    workingMemoryRetained: workingMemoryChars > 0,
    message:
      `kept the turn's own ${own.length} message(s), dropped ${dropped} composed by memory` +
      (workingMemoryChars > 0
        ? `; the system text was replayed as recorded and still holds ${workingMemoryChars} characters of working memory`
        : "; the system text was replayed as recorded (no working memory in it)"),
  };
  // The input keeps its recorded form (a string stays a string) when nothing of it was dropped.
  const input = canonicalJson(own) === canonicalJson(inputMessages(header.input)) ? header.input : own;
  return { input, memory: composer(stripped), disclosure };
}
