/**
 * Escaping of chart labels, shared by the expanded chart (mermaid.ts, chart.ts) and the aggregated
 * one (aggregate.ts). Labels are written as Mermaid entity codes, so no tool name or output can
 * close a label, start new syntax, or carry HTML into the page. Pure.
 */
import type { FlowNode } from "./flow";

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
