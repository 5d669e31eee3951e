/**
 * The Model port: a streaming model. It yields text deltas while it works, then exactly one
 * `finish` part with the assembled message (text and tool calls) and the call's usage.
 * Adapters: scripted models (lib/demo), the replay model (replay.ts), any AI SDK model (ai-sdk.ts).
 */
import type { AssistantMessage, Message, Usage } from "./messages";

export interface ToolDescription {
  name: string;
  description: string;
  /** JSON Schema of the tool's input. */
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  system?: string;
  messages: Message[];
  tools: ToolDescription[];
  signal?: AbortSignal;
  /**
   * Which sample this is, when one request is asked several times (the playground's tries): a
   * sampling model may answer each differently; a provider that takes a seed gets it. Absent in
   * a run, where the same request gets the model's one answer.
   */
  seed?: number;
}

export type ModelStreamPart = { type: "text-delta"; text: string } | { type: "finish"; message: AssistantMessage; usage: Usage };

export interface Model {
  /** A stable name: `demo/v1`, `openai:gpt-5`, `recorded:<run>`. */
  readonly id: string;
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}

/** Streams a model call to the end, passing each delta on; returns the finish part. */
export async function collect(model: Model, request: ModelRequest, onDelta?: (text: string) => void): Promise<{ message: AssistantMessage; usage: Usage }> {
  for await (const part of model.stream(request)) {
    if (part.type === "text-delta") onDelta?.(part.text);
    else return { message: part.message, usage: part.usage };
  }
  throw new Error(`model ${model.id} ended its stream without a finish part`);
}

const DRIVES_TREE = Symbol.for("backtrack.model.drivesTree");

/** Marks a model that must drive sub-agents too (the replay model: it holds the whole tree's outputs). */
export function drivesWholeTree<M extends Model>(model: M): M {
  Object.defineProperty(model, DRIVES_TREE, { value: true });
  return model;
}

export function isTreeModel(model: Model): boolean {
  return (model as unknown as Record<symbol, unknown>)[DRIVES_TREE] === true;
}
