/**
 * OpenInference spans (Arize's semantic conventions: the OpenAI, LangChain, LlamaIndex, OpenAI
 * Agents and Mastra instrumentations) read into what map.ts builds records from. OpenInference
 * flattens lists into indexed keys (`llm.input_messages.0.message.role`); this module folds them
 * back into the message shapes messages.ts already reads. Names are the spec's
 * (github.com/Arize-ai/openinference, spec/semantic_conventions.md). Pure and defensive: a value of
 * another shape gives nothing rather than a guess.
 */
import type { Attributes, AttributeValue, OtelSpan } from "./spans";
import { jsonAttribute, numberAttribute, stringAttribute } from "./spans";

export const OPENINFERENCE_KIND = "openinference.span.kind";

/** The span's OpenInference kind (upper case as the spec writes it), or undefined for another span. */
export function openInferenceKind(span: OtelSpan): string | undefined {
  return stringAttribute(span.attributes, OPENINFERENCE_KIND)?.toUpperCase();
}

type Loose = Record<string, unknown>;

/**
 * The indexed entries under `prefix` (`<prefix>.<i>.<rest>`), each as its own attribute map keyed
 * by `<rest>`, in index order. Also accepts a list-valued attribute `prefix` (some exporters send
 * lists of objects unflattened).
 */
export function indexed(attributes: Attributes, prefix: string): Attributes[] {
  const whole = attributes[prefix];
  if (Array.isArray(whole)) return whole.filter((item): item is { [key: string]: AttributeValue } => typeof item === "object" && item !== null && !Array.isArray(item));
  const entries = new Map<number, Attributes>();
  const head = `${prefix}.`;
  for (const key in attributes) {
    if (!key.startsWith(head)) continue;
    const dot = key.indexOf(".", head.length);
    if (dot < 0) continue;
    const index = Number(key.slice(head.length, dot));
    if (!Number.isInteger(index) || index < 0 || index > 100_000) continue;
    const entry = entries.get(index) ?? {};
    entry[key.slice(dot + 1)] = attributes[key] as AttributeValue;
    entries.set(index, entry);
  }
  return [...entries.entries()].sort((a, b) => a[0] - b[0]).map((pair) => pair[1]);
}

function parsed(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** One message's tool calls (`message.tool_calls.<j>.tool_call.*`) as AI SDK tool-call parts. */
function toolCallParts(message: Attributes): Loose[] {
  return indexed(message, "message.tool_calls").map((call) => ({
    type: "tool-call",
    toolCallId: stringAttribute(call, "tool_call.id") ?? "",
    toolName: stringAttribute(call, "tool_call.function.name") ?? "",
    args: parsed(call["tool_call.function.arguments"] ?? null) ?? null,
  }));
}

/** A message's text: `message.content`, else its `message.contents.<j>.message_content.text` of type text. */
function textOf(message: Attributes): string | undefined {
  const content = stringAttribute(message, "message.content");
  if (content !== undefined) return content;
  const texts = indexed(message, "message.contents")
    .filter((part) => (stringAttribute(part, "message_content.type") ?? "text") === "text")
    .map((part) => stringAttribute(part, "message_content.text"))
    .filter((text) => text !== undefined);
  return texts.length > 0 ? texts.join("") : undefined;
}

/**
 * The messages under `prefix` (`llm.input_messages`, `llm.output_messages`) in the shape
 * messages.ts's conversationOf reads: `{ role, content: parts }`. Undefined when there are none.
 */
export function openInferenceMessages(attributes: Attributes, prefix: string): Loose[] | undefined {
  const list = indexed(attributes, prefix);
  if (list.length === 0) return undefined;
  return list.map((message) => {
    const role = stringAttribute(message, "message.role") ?? "user";
    const text = textOf(message);
    if (role === "tool" || role === "function") {
      const result = {
        type: "tool-result",
        toolCallId: stringAttribute(message, "message.tool_call_id") ?? "",
        toolName: stringAttribute(message, "message.name") ?? "",
        output: text ?? null,
      };
      return { role: "tool", content: [result] };
    }
    const parts: Loose[] = text !== undefined ? [{ type: "text", text }] : [];
    return { role, content: [...parts, ...toolCallParts(message)] };
  });
}

/** Token counts (`llm.token_count.prompt` / `.completion`). */
export function openInferenceUsage(attributes: Attributes): { inputTokens?: number; outputTokens?: number } {
  return { inputTokens: numberAttribute(attributes, "llm.token_count.prompt"), outputTokens: numberAttribute(attributes, "llm.token_count.completion") };
}

/** The tool names offered to the model (`llm.tools.<i>.tool.json_schema`, an OpenAI function definition or `{ name }`). */
export function openInferenceTools(attributes: Attributes): string[] {
  const names: string[] = [];
  for (const entry of indexed(attributes, "llm.tools")) {
    const schema = parsed(entry["tool.json_schema"]) as { name?: unknown; function?: { name?: unknown } } | null;
    const name = schema?.function?.name ?? schema?.name ?? entry["tool.name"];
    if (typeof name === "string" && name !== "" && !names.includes(name)) names.push(name);
  }
  return names;
}

/** `input.value` or `output.value`, parsed when its mime type says JSON (or it parses), else the text. */
export function openInferenceValue(attributes: Attributes, side: "input" | "output"): unknown {
  const value = attributes[`${side}.value`];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") return value;
  const mime = stringAttribute(attributes, `${side}.mime_type`);
  if (mime === "text/plain") return value;
  return parsed(value);
}

/**
 * A TOOL span's result as the tool returned it. LangChain.js writes `{ output: <ToolMessage> }`,
 * the message in its serialised form (`{ lc: 1, type: "constructor", kwargs: { content } }`):
 * the content is the result (parsed when it is JSON).
 */
export function toolOutputOf(value: unknown): unknown {
  const outer = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Loose) : undefined;
  const inner = outer && Object.keys(outer).length === 1 && "output" in outer ? outer.output : value;
  const message = typeof inner === "object" && inner !== null ? (inner as Loose) : undefined;
  const kwargs = message?.lc === 1 && typeof message.kwargs === "object" && message.kwargs !== null ? (message.kwargs as Loose) : undefined;
  if (kwargs && "content" in kwargs) return parsed(kwargs.content);
  return inner;
}

/** Fields a framework's chain or agent input/output object holds its text under, in order. */
const TEXT_FIELDS = ["input", "question", "query", "output", "answer", "text", "content", "result"];

/** The text a run span's `input.value` / `output.value` stands for: the text itself, or a text field of a JSON object. */
export function openInferenceText(attributes: Attributes, side: "input" | "output"): string | undefined {
  const value = openInferenceValue(attributes, side);
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const fields = value as Loose;
  for (const field of TEXT_FIELDS) if (typeof fields[field] === "string") return fields[field];
  const messages = Array.isArray(fields.messages) ? (fields.messages as unknown[]) : [];
  const last = messages.at(-1) as Loose | undefined;
  return typeof last?.content === "string" ? last.content : undefined;
}

/** What the run header keeps of a run span's session, user and metadata. */
export function openInferenceContext(attributes: Attributes): { sessionId?: string; userId?: string; metadata?: unknown } {
  const sessionId = stringAttribute(attributes, "session.id");
  const userId = stringAttribute(attributes, "user.id");
  const metadata = jsonAttribute(attributes, "metadata");
  return { ...(sessionId ? { sessionId } : {}), ...(userId ? { userId } : {}), ...(metadata !== undefined ? { metadata } : {}) };
}

export interface RetrievedDocument {
  id?: string;
  content?: string;
  score?: number;
  metadata?: unknown;
}

/** A RETRIEVER span's signal payload: its query (`input.value`) and `retrieval.documents`. */
export function retrievalPayloadOf(span: OtelSpan): { type: "retrieval"; query?: string; documents: RetrievedDocument[]; spanId: string } {
  const documents = indexed(span.attributes, "retrieval.documents").map((document) => {
    const id = document["document.id"];
    const score = numberAttribute(document, "document.score");
    const content = stringAttribute(document, "document.content");
    const metadata = jsonAttribute(document, "document.metadata");
    return {
      ...(id !== undefined && id !== null ? { id: String(id) } : {}),
      ...(content !== undefined ? { content } : {}),
      ...(score !== undefined ? { score } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
    };
  });
  const query = openInferenceText(span.attributes, "input");
  return { type: "retrieval", ...(query !== undefined ? { query } : {}), documents, spanId: span.spanId };
}
