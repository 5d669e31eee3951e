/**
 * The flow of a run: one node per drawn record, in run order (the seed's RenderMermaid mapping).
 * Pure; the CLI's `mermaid`, the API and the inspector's flowchart all draw from it.
 *   model        → LLM
 *   tool_result  → tool: <name> (+ " ✗" when it failed)
 *   approval     → approved ✓ / denied ✗
 *   value        → step: <name> (run:complete included)
 *   header, attempt, signal (pauses, sub-agent starts, :memctx) → not drawn
 *   any other kind → unknown: <kind>
 */
import type { ApprovalPayload, ToolResultPayload, ValuePayload } from "../agent/payloads";
import { isKnownKind, type JournalRecord } from "../journal/types";

export type FlowNodeKind = "model" | "tool" | "approval" | "step" | "unknown";

export interface FlowNode {
  /** n0, n1, … in drawing order. */
  id: string;
  seq: number;
  recordName: string;
  kind: FlowNodeKind;
  label: string;
  failed: boolean;
  childRunIds: string[];
}

const NOT_DRAWN = new Set(["header", "attempt", "signal"]);

export function flowNode(record: JournalRecord, index: number): FlowNode | undefined {
  if (NOT_DRAWN.has(record.kind)) return undefined;
  const base = { id: `n${index}`, seq: record.seq, recordName: record.name, failed: false, childRunIds: [] as string[] };
  const payload = (record.payload ?? {}) as Record<string, unknown>;
  switch (record.kind) {
    case "model":
      return { ...base, kind: "model", label: "LLM" };
    case "tool_result": {
      const result = payload as Partial<ToolResultPayload>;
      const failed = result.isError === true;
      const children = Array.isArray(result.childRunIds) ? result.childRunIds.filter((id): id is string => typeof id === "string") : [];
      return { ...base, kind: "tool", label: `tool: ${String(result.toolName ?? "?")}${failed ? " ✗" : ""}`, failed, childRunIds: children };
    }
    case "approval": {
      const approved = (payload as Partial<ApprovalPayload>).approved === true;
      return { ...base, kind: "approval", label: approved ? "approved ✓" : "denied ✗", failed: !approved };
    }
    case "value": {
      const step = (payload as Partial<ValuePayload>).step;
      return { ...base, kind: "step", label: `step: ${typeof step === "string" ? step : record.name}` };
    }
    default:
      return isKnownKind(record.kind) ? undefined : { ...base, kind: "unknown", label: `unknown: ${record.kind}` };
  }
}

/** The drawn nodes of a run's records, numbered n0, n1, … */
export function buildFlow(records: readonly JournalRecord[]): FlowNode[] {
  const nodes: FlowNode[] = [];
  for (const record of records) {
    const node = flowNode(record, nodes.length);
    if (node) nodes.push(node);
  }
  return nodes;
}
