/**
 * The run as it was at step `at`, with its conversation and tool results windowed: the summary
 * (O(1) from the timeline), the record at the step, the newest conversation records before a
 * cursor, and where the next (older) window starts. What GET /api/runs/{id}/state serves: a run
 * of 200,000 records answers in one bounded window instead of its whole history (stateAt, in
 * timeline.ts, gives everything at once for the library and small runs). Pure.
 */
import type { JournalRecord } from "../journal/types";
import {
  conversationItems,
  countThrough,
  summaryAt,
  toolResultOf,
  type ConversationItem,
  type RunFacts,
  type StepSummary,
  type TimelineView,
  type ToolResultSoFar,
} from "./timeline";

export interface StateWindow extends StepSummary {
  record: JournalRecord | undefined;
  /** The window's conversation, oldest first. */
  conversation: ConversationItem[];
  /** The window's tool results, oldest first. */
  toolResults: ToolResultSoFar[];
  /** Every sub-agent run started so far (from the outline: small). */
  childRunIds: string[];
  window: {
    /** The lowest seq the window holds, or null when it holds none. */
    from: number | null;
    /** The window holds conversation records below this seq only. */
    before: number;
    /** Conversation records (and tool results) through `at`, in all. */
    conversationRecords: number;
    toolResults: number;
    /** The seq to pass as `before` for the next, older window; null when this one reaches step 0. */
    nextBefore: number | null;
  };
}

/** The newest `limit` conversation steps a window may hold (at or before `at`, below `before`), ascending. */
export function windowSteps(timeline: TimelineView, at: number, before: number, limit: number): number[] {
  const end = countThrough(timeline.conversationSteps, Math.min(at, before - 1));
  const steps: number[] = [];
  for (let index = Math.max(0, end - limit); index < end; index += 1) steps.push(timeline.conversationSteps[index]!);
  return steps;
}

function childRunIdsThrough(timeline: TimelineView, at: number): string[] {
  return timeline.childStarts.filter(([step]) => step <= at).map(([, runId]) => runId);
}

/**
 * The state at `at`. `records`: the window's conversation records, any order, each one of
 * windowSteps' (the caller chose how many fit); `record`: the record at the step.
 */
export function stateWindow(
  timeline: TimelineView,
  at: number,
  run: RunFacts | null,
  input: { record: JournalRecord | undefined; records: readonly JournalRecord[]; before: number },
): StateWindow {
  const summary = summaryAt(timeline, at, run);
  const records = [...input.records].sort((left, right) => left.seq - right.seq);
  const from = records[0]?.seq ?? null;
  // The window's records are the newest eligible ones: any conversation step below the first is older.
  const older = from === null ? 0 : countThrough(timeline.conversationSteps, from - 1);
  return {
    ...summary,
    record: input.record,
    conversation: records.flatMap(conversationItems),
    toolResults: records.filter((record) => record.kind === "tool_result").map(toolResultOf),
    childRunIds: childRunIdsThrough(timeline, summary.at),
    window: {
      from,
      before: input.before,
      conversationRecords: countThrough(timeline.conversationSteps, summary.at),
      toolResults: countThrough(timeline.toolResultSteps, summary.at),
      nextBefore: older > 0 ? from : null,
    },
  };
}
