/**
 * Mermaid text of a run's flow. Labels are escaped as Mermaid entity codes, so no tool name or
 * output can close a label, start new syntax, or carry HTML into the page.
 */
import { RunNotFoundError } from "../journal/errors";
import type { Journal } from "../journal/ports";
import { buildFlow, type FlowNode } from "./flow";

/** Characters that mean something to Mermaid or HTML, written as #<code>; inside a quoted label. */
const UNSAFE = /["<>&#`[\]{}()|\\%;]/g;

export function escapeLabel(text: string): string {
  // Control characters and line breaks would end the statement: fold them to spaces.
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, " ");
  return flat.replace(UNSAFE, (character) => `#${character.codePointAt(0)};`);
}

/** The label prefixes the mapping writes ("tool: ", "step: ") are kept readable; only the data is escaped. */
export function nodeLabel(node: Pick<FlowNode, "label">): string {
  const prefix = /^(tool|step|unknown): /.exec(node.label)?.[0] ?? "";
  return `${prefix}${escapeLabel(node.label.slice(prefix.length))}`;
}

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

export async function renderMermaid(store: Journal, runId: string): Promise<string> {
  if (!(await store.run(runId))) throw new RunNotFoundError(runId);
  return flowToMermaid(buildFlow(await store.history(runId)));
}
