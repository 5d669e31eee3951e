/**
 * fromAiSdkTools: an AI SDK app's tools as Backtrack tools, so that the app can register its agent
 * in backtrack.config.ts and its journaled runs can be replayed under another model (replayRun),
 * resumed from the recovery board, or forked, by the native loop:
 *
 *   agents: [{ name: "support", create: (store, model) => new Agent({ name: "support", store, model: model ?? …, tools: fromAiSdkTools(tools) }) }]
 *
 * Invariants: a tool's input schema is the app's own (a zod 4 schema as it is, a JSON schema
 * through z.fromJSONSchema), so the replayed model sees the same tool description; `execute`
 * gets the AI SDK's options with the native loop's idempotency key; tools without `execute` are
 * left out (nothing can run them outside the app).
 */
import type { ToolExecutionOptions, ToolSet } from "ai";
import { z } from "zod";
import { tool, type AnyTool } from "../agent/tool";
import { lastValue, type JournaledToolOptions } from "./tools";

export interface FromAiSdkToolsOptions {
  /** Tools safe to run again with the same idempotency key after an unknown outcome. */
  idempotent?: readonly string[];
}

export function fromAiSdkTools(tools: ToolSet, options: FromAiSdkToolsOptions = {}): AnyTool[] {
  const converted: AnyTool[] = [];
  for (const [name, definition] of Object.entries(tools)) {
    const execute = definition.execute;
    if (!execute) continue;
    converted.push(
      tool({
        name,
        description: definition.description ?? "",
        input: schemaOf(definition.inputSchema),
        execute: async (args, ctx) => {
          const sdk: JournaledToolOptions = {
            toolCallId: ctx.toolCallId,
            messages: [],
            abortSignal: ctx.signal,
            idempotencyKey: ctx.idempotencyKey,
            runId: ctx.runId,
            callName: ctx.callName,
          };
          return lastValue(await execute(args as never, sdk as ToolExecutionOptions));
        },
        ...approvalOf(definition.needsApproval),
        ...(options.idempotent?.includes(name) ? { safety: { idempotencyKey: true } } : {}),
      }),
    );
  }
  return converted;
}

/** A zod 4 schema is used as it is; an AI SDK `jsonSchema(...)` through its JSON schema; anything else accepts any input. */
function schemaOf(schema: unknown): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  const json = (schema as { jsonSchema?: unknown } | null)?.jsonSchema;
  if (typeof json === "object" && json !== null && typeof (json as PromiseLike<unknown>).then !== "function") {
    return z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]);
  }
  return z.unknown();
}

/** The native loop decides approvals synchronously: an asynchronous rule counts as "needs approval". */
function approvalOf(needsApproval: ToolSet[string]["needsApproval"]): { needsApproval?: boolean | ((args: unknown) => boolean) } {
  if (needsApproval === undefined) return {};
  if (typeof needsApproval === "boolean") return { needsApproval };
  return {
    needsApproval: (args: unknown) => {
      const answer = needsApproval(args as never, { toolCallId: "", messages: [] });
      return typeof answer === "boolean" ? answer : true;
    },
  };
}
