/**
 * describeTool: what a model is shown of a tool. Its JSON Schema is converted once per zod schema
 * and handed out as a fresh copy each time.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeTool, tool } from "@/lib/agent/tool";

const lookUp = tool({
  name: "lookUp",
  description: "Look an order up",
  input: z.object({ orderId: z.string().min(1), verbose: z.boolean().optional() }),
  execute: async ({ orderId }) => ({ orderId }),
});

describe("describeTool", () => {
  it("describes the tool's input as zod's JSON Schema, the same on every call", () => {
    const first = describeTool(lookUp);
    expect(first).toEqual({ name: "lookUp", description: "Look an order up", inputSchema: z.toJSONSchema(lookUp.input, { unrepresentable: "any" }) });
    expect(describeTool(lookUp)).toEqual(first);
  });

  it("hands each caller its own copy: changing one description changes no later one", () => {
    const first = describeTool(lookUp);
    (first.inputSchema.properties as Record<string, unknown>).orderId = { type: "number" };
    first.inputSchema.required = [];
    const second = describeTool(lookUp);
    expect(second.inputSchema).not.toBe(first.inputSchema);
    expect((second.inputSchema.properties as Record<string, { type: string }>).orderId?.type).toBe("string");
    expect(second.inputSchema.required).toEqual(["orderId"]);
  });
});
