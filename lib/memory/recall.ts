/**
 * recallMemory: an AgentMemory over a MemoryBank. Before a run's first model turn it recalls the
 * memories relevant to the run's input, composes them as one message in front of the input, may
 * add working memory to the system text, and the loop journals all of it as `turn:0:memctx`.
 *
 * The relevance rule, deliberately simple and predictable:
 *   words      = lower-cased runs of letters and digits, 3+ characters, minus a few stop words
 *   score      = how many distinct words of the incoming user text the memory's text also has
 *   recalled   = memories with score >= minScore (default 1), best first, newest first on ties,
 *                at most `limit` (default 3), among the scope's `candidates` newest (default 500)
 */
import type { AgentMemory, MemoryComposition, MemoryRequest, RecalledMemory } from "../agent/memory";
import type { Message, UserMessage } from "../agent/messages";
import type { MemoryBank, StoredMemory } from "./banks";

export interface RecallMemoryOptions {
  bank: MemoryBank;
  /** Whose memories: one scope of the bank. */
  scope: string;
  limit?: number;
  minScore?: number;
  candidates?: number;
  /** Text added to the system text (a profile, a scratchpad): counted in `workingMemoryChars`. */
  workingMemory?: string | (() => Promise<string> | string);
}

/** The heading of the composed message: the demo model and readers of a journal can recognise it. */
export const RECALLED_HEADING = "Recalled memories (from earlier conversations, not said in this one):";
const WORKING_MEMORY_HEADING = "Working memory:";

const STOP_WORDS = new Set([
  "the",
  "and",
  "for",
  "are",
  "but",
  "not",
  "you",
  "your",
  "all",
  "any",
  "can",
  "had",
  "her",
  "was",
  "one",
  "our",
  "out",
  "has",
  "have",
  "him",
  "his",
  "how",
  "its",
  "who",
  "what",
  "when",
  "where",
  "which",
  "why",
  "with",
  "this",
  "that",
  "from",
  "they",
  "them",
  "then",
  "there",
  "these",
  "those",
  "will",
  "would",
  "should",
  "could",
  "about",
  "into",
  "than",
  "also",
  "been",
  "did",
  "does",
  "just",
  "like",
  "please",
  "tell",
]);

function words(text: string): Set<string> {
  const found = new Set<string>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (word.length >= 3 && !STOP_WORDS.has(word)) found.add(word);
  }
  return found;
}

/** The memories worth recalling for `query`, best first (the rule above). Pure. */
export function rankMemories(memories: readonly StoredMemory[], query: string, options: { limit?: number; minScore?: number } = {}): RecalledMemory[] {
  const wanted = words(query);
  const minScore = options.minScore ?? 1;
  const scored = memories
    .map((memory, order) => {
      let score = 0;
      for (const word of words(memory.text)) if (wanted.has(word)) score += 1;
      return { memory, score, order };
    })
    .filter((entry) => entry.score >= minScore)
    // `memories` is newest first: on equal scores, the newer memory wins.
    .sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.slice(0, options.limit ?? 3).map(({ memory, score }) => ({ id: memory.id, text: memory.text, score }));
}

function composeRecalled(recalled: readonly RecalledMemory[]): Message[] {
  if (recalled.length === 0) return [];
  const message: UserMessage = { role: "user", content: [RECALLED_HEADING, ...recalled.map((memory) => `- ${memory.text}`)].join("\n") };
  return [message];
}

function userText(messages: readonly Message[]): string {
  return messages
    .filter((message): message is UserMessage => message.role === "user")
    .map((message) => message.content)
    .join("\n");
}

export function recallMemory(options: RecallMemoryOptions): AgentMemory {
  return {
    async compose(request: MemoryRequest): Promise<MemoryComposition> {
      const candidates = await options.bank.list(options.scope, { limit: options.candidates ?? 500 });
      const recalled = rankMemories(candidates, userText(request.incoming), options);
      const working = typeof options.workingMemory === "function" ? await options.workingMemory() : (options.workingMemory ?? "");
      const composition: MemoryComposition = { composed: composeRecalled(recalled), memories: recalled, workingMemoryChars: working.length };
      if (working.length > 0) composition.system = [request.system, `${WORKING_MEMORY_HEADING}\n${working}`].filter(Boolean).join("\n\n");
      return composition;
    },
  };
}
