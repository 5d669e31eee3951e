/** A timeline of either form (the browser's arrays, the server's packed chunks) as plain data, to compare. */
import type { TimelineView } from "@/lib/inspect/timeline";

export function timelineFacts(timeline: TimelineView) {
  const all = <T>(list: { length: number; at(index: number): T | undefined }) => Array.from({ length: list.length }, (_, index) => list.at(index));
  return {
    entries: all(timeline.entries),
    nodes: all(timeline.nodes),
    nodeAtStep: Array.from(timeline.nodeAtStep),
    inputTokens: Array.from(timeline.inputTokens),
    outputTokens: Array.from(timeline.outputTokens),
    modelTurns: Array.from(timeline.modelTurns),
    toolCalls: Array.from(timeline.toolCalls),
    failedToolCalls: Array.from(timeline.failedToolCalls),
    conversationSteps: Array.from(timeline.conversationSteps),
    toolResultSteps: Array.from(timeline.toolResultSteps),
    childStarts: timeline.childStarts.map(([step, runId]) => [step, runId]),
    completeStep: timeline.completeStep,
  };
}
