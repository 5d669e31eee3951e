/**
 * `backtrack/testing`: what tests and examples of a program built on Backtrack use, kept off the
 * main entry. In-memory references (MemStore, the in-memory memory bank), deterministic scripted
 * models, and fault injection for crash tests. tests/api/public-names.test.ts holds the list.
 */

/** The in-memory reference journal: every port (Journal, Lister, Leaser), no database. */
export { MemStore } from "./journal/memory-store";
/** An in-memory bank of memories (memoryBankFor gives one per MemStore). */
export { MemMemoryBank } from "./memory/banks";
/** Fault injection: `new MemStore({ faults: crashAt(3) })` throws SimulatedCrashError around the 3rd append. */
export { crashAt, SimulatedCrashError, type FaultPlan } from "./journal/faults";
/** Deterministic models: a script maps a request to a reply, so a run can be resumed and replayed. */
export { scriptedModel, type Script, type ScriptedReply, type ScriptedOptions } from "./agent/scripted";
/** Helpers for scripts: the first user text of a request, and the tool results it carries. */
export { userText, toolResults } from "./agent/scripted";
