/**
 * What a playground's tries add up to, against the turn's recorded output: each try's outcome
 * (the tools it called, or text), how many tries each outcome got, which arguments of a call
 * differ from the recorded call's and in how many tries, and a word diff of each try's output.
 * Pure: the CLI, the API and the page show this one projection.
 */
import type { AssistantMessage, ToolCallPart } from "../agent/messages";
import { textOf, toolCallsOf } from "../agent/messages";
import { canonicalJson } from "../journal/canonical";
import { wordDiff, type WordPart } from "../inspect/diff-view";

export interface TryOutcome {
  /** `tool:chargeCard` (several calls joined with `+`), or `text`. */
  key: string;
  label: string;
  count: number;
  /** Which tries (0-based) had it. */
  tries: number[];
  /** Whether the recorded output had it. */
  recorded: boolean;
}

export interface ArgumentDifference {
  tool: string;
  /** A top-level argument name. */
  argument: string;
  count: number;
}

export interface TrySummary {
  times: number;
  outcomes: TryOutcome[];
  differences: ArgumentDifference[];
  /** Tries whose output is the recorded one (tool call ids aside). */
  asRecorded: number;
  /** "tool `chargeCard` in 7 of 10; text in 3 of 10; amount differs in 1; 6 of 10 as recorded". */
  line: string;
}

function outcomeOf(message: AssistantMessage): { key: string; label: string } {
  const names = toolCallsOf(message).map((call) => call.toolName);
  if (names.length === 0) return { key: "text", label: "text" };
  return { key: `tool:${names.join("+")}`, label: names.length === 1 ? `tool \`${names[0]}\`` : `tools ${names.map((name) => `\`${name}\``).join(" + ")}` };
}

/** The output as a comparable value: text and calls (name and arguments), call ids left out. */
function shapeOf(message: AssistantMessage): string {
  return canonicalJson({ text: textOf(message), calls: toolCallsOf(message).map((call) => ({ name: call.toolName, args: call.args })) });
}

/** The output as one line of words: its text, then each call as `name {arguments}`. */
export function outputText(message: AssistantMessage): string {
  const calls = toolCallsOf(message).map((call) => `${call.toolName} ${canonicalJson(call.args)}`);
  return [textOf(message), ...calls].filter((part) => part !== "").join("\n");
}

/** The top-level arguments of `call` that differ from `recorded`'s. */
function differingArguments(recorded: ToolCallPart, call: ToolCallPart): string[] {
  const before = (recorded.args ?? {}) as Record<string, unknown>;
  const after = (call.args ?? {}) as Record<string, unknown>;
  if (typeof before !== "object" || typeof after !== "object") return canonicalJson(before) === canonicalJson(after) ? [] : ["(arguments)"];
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names.filter((name) => canonicalJson(before[name] ?? null) !== canonicalJson(after[name] ?? null));
}

/** The word diff of a try's output against the recorded one (undefined when they are too long to diff). */
export function outputDiff(recorded: AssistantMessage, output: AssistantMessage): WordPart[] | undefined {
  return wordDiff(outputText(recorded), outputText(output));
}

export function summarizeTries(recorded: AssistantMessage, outputs: readonly AssistantMessage[]): TrySummary {
  const outcomes = new Map<string, TryOutcome>();
  const recordedOutcome = outcomeOf(recorded).key;
  const differences = new Map<string, ArgumentDifference>();
  const recordedCalls = toolCallsOf(recorded);
  let asRecorded = 0;
  outputs.forEach((output, index) => {
    const { key, label } = outcomeOf(output);
    const entry = outcomes.get(key) ?? { key, label, count: 0, tries: [], recorded: key === recordedOutcome };
    entry.count += 1;
    entry.tries.push(index);
    outcomes.set(key, entry);
    if (shapeOf(output) === shapeOf(recorded)) asRecorded += 1;
    const differing = new Set<string>();
    toolCallsOf(output).forEach((call, position) => {
      const before = recordedCalls[position];
      if (before?.toolName !== call.toolName) return;
      for (const argument of differingArguments(before, call)) differing.add(`${call.toolName}\u0000${argument}`);
    });
    for (const pair of differing) {
      const [tool, argument] = pair.split("\u0000") as [string, string];
      const difference = differences.get(pair) ?? { tool, argument, count: 0 };
      difference.count += 1;
      differences.set(pair, difference);
    }
  });
  const sorted = [...outcomes.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  const times = outputs.length;
  const parts = [
    ...sorted.map((outcome) => `${outcome.label} in ${outcome.count} of ${times}`),
    ...[...differences.values()].map((difference) => `${difference.argument} differs in ${difference.count}`),
    `${asRecorded} of ${times} as recorded`,
  ];
  return { times, outcomes: sorted, differences: [...differences.values()], asRecorded, line: parts.join("; ") };
}
