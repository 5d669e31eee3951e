/**
 * Mermaid text of a run's flow. Labels are escaped as Mermaid entity codes, so no tool name or
 * output can close a label, start new syntax, or carry HTML into the page.
 */
import { RunNotFoundError } from "../journal/errors";
import type { Journal } from "../journal/ports";
import { aggregateOutline, aggregateSource } from "./aggregate";
import { buildFlow, type FlowNode } from "./flow";
import { nodeLabel } from "./labels";
import { outline } from "./outline";

export { escapeLabel, nodeLabel } from "./labels";

export function flowToMermaid(nodes: readonly FlowNode[]): string {
  const lines = ["flowchart TD", "  start([user])"];
  let previous = "start";
  for (const node of nodes) {
    lines.push(`  ${node.id}["${nodeLabel(node)}"]`);
    lines.push(`  ${previous} --> ${node.id}`);
    previous = node.id;
  }
  lines.push(`  ${previous} --> done([done])`);
  return lines.join("\n");
}

export interface RenderMermaidOptions {
  /** One node per distinct step with counted transitions (aggregate.ts) instead of one node per record. */
  aggregate?: boolean;
}

export async function renderMermaid(store: Journal, runId: string, options: RenderMermaidOptions = {}): Promise<string> {
  if (!(await store.run(runId))) throw new RunNotFoundError(runId);
  const records = await store.history(runId);
  return options.aggregate ? aggregateSource(aggregateOutline(outline(records))) : flowToMermaid(buildFlow(records));
}
