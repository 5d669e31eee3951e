/**
 * The durable projection of a run's events (the seed's ReplayEvents): model records become
 * AssistantTurn{replayed: true}, tool_result records become ToolCompleted. Pure: the same records
 * give the same events, before and after a crash. Records it does not know are skipped.
 */
import type { DurableEvent } from "../agent/events";
import type { ModelPayload, ToolResultPayload } from "../agent/payloads";
import { RunNotFoundError } from "../journal/errors";
import type { Journal } from "../journal/ports";
import type { JournalRecord } from "../journal/types";

export function projectEvents(records: readonly JournalRecord[]): DurableEvent[] {
  const events: DurableEvent[] = [];
  for (const record of records) {
    if (record.kind === "model") {
      const payload = record.payload as Partial<ModelPayload> | null;
      if (!payload?.message) continue;
      const turn = Number(/^turn:(\d+)$/.exec(record.name)?.[1] ?? events.length);
      events.push({
        type: "AssistantTurn",
        runId: record.runId,
        turn,
        message: payload.message,
        usage: payload.usage ?? { inputTokens: 0, outputTokens: 0 },
        replayed: true,
      });
    } else if (record.kind === "tool_result") {
      const payload = (record.payload ?? {}) as Partial<ToolResultPayload>;
      events.push({
        type: "ToolCompleted",
        runId: record.runId,
        toolUseId: String(payload.toolCallId ?? ""),
        name: String(payload.toolName ?? ""),
        result: payload.result ?? null,
        isError: payload.isError === true,
        replayed: true,
      });
    }
  }
  return events;
}

export async function replayEvents(store: Journal, runId: string): Promise<DurableEvent[]> {
  if (!(await store.run(runId))) throw new RunNotFoundError(runId);
  return projectEvents(await store.history(runId));
}
