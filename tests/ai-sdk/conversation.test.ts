/**
 * AI SDK runs that go on across calls, on every store: the AI SDK's own approval flow (a
 * tool-approval-response in the next call's messages), a chat continued in the same run, a long
 * conversation's bounded records, and bad options.
 */
import { generateText, stepCountIs, tool, type ModelMessage } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_REQUEST_BYTES } from "@/lib/ai-sdk/convert";
import { backtrackMiddleware } from "@/lib/ai-sdk/middleware";
import { journalTools } from "@/lib/ai-sdk/tools";
import { BadInputError } from "@/lib/journal/errors";
import type { Journal } from "@/lib/journal/ports";
import { MemStore } from "@/lib/journal/memory-store";
import { STORE_KINDS } from "../helpers/databases";
import { journaled, scripted, type Reply } from "./helpers";

describe.each(STORE_KINDS)("AI SDK runs across calls: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  beforeEach(async () => {
    store = await kind.open();
  });
  afterEach(async () => {
    await store.close();
  });

  it("journals an approval given through the AI SDK's own flow, runs the tool once, and goes on in the same run", async () => {
    const refunds: number[] = [];
    const tools = journalTools(
      {
        refund: tool({
          description: "Refund",
          inputSchema: z.object({ amount: z.number() }),
          needsApproval: true,
          execute: async ({ amount }) => (refunds.push(amount), { refunded: amount }),
        }),
      },
      { store, runId: "chat-1" },
    );
    const replies: Reply[] = [{ call: { id: "r-1", name: "refund", input: { amount: 20 } } }, { text: "Refunded 20." }];
    const model = journaled(scripted(replies), { store, runId: "chat-1", agent: "refunds" });
    const messages: ModelMessage[] = [{ role: "user", content: "Refund order 9" }];
    const first = await generateText({ model, messages, tools, stopWhen: stepCountIs(5) });
    const request = first.content.find((part) => part.type === "tool-approval-request");
    expect(request).toBeDefined();
    expect(await store.run("chat-1")).toMatchObject({ status: "paused", pause: { reason: "approval" } });
    messages.push(...first.response.messages, { role: "tool", content: [{ type: "tool-approval-response", approvalId: request!.approvalId, approved: true }] });
    const second = await generateText({ model, messages, tools, stopWhen: stepCountIs(5) });
    expect(second.text).toBe("Refunded 20.");
    expect(refunds).toEqual([20]);
    expect((await store.record("chat-1", "turn:0:call:0:approval"))?.payload).toMatchObject({ approved: true, by: "ai-sdk", toolName: "refund" });
    expect(await store.run("chat-1")).toMatchObject({ status: "complete" });
    // The chat goes on in the same run: one more turn, and the run says complete again.
    messages.push(...second.response.messages, { role: "user", content: "Thanks!" });
    const welcome: Reply = { text: "You're welcome." };
    const third = await generateText({ model: journaled(scripted([welcome, welcome]), { store, runId: "chat-1", agent: "refunds" }), messages });
    expect(third.text).toBe("You're welcome.");
    const names = (await store.history("chat-1")).map((record) => record.name);
    expect(names.filter((name) => /^turn:\d+$/.test(name))).toEqual(["turn:0", "turn:1", "turn:2"]);
    expect(await store.run("chat-1")).toMatchObject({ status: "complete", modelTurns: 3 });
  });

  it("keeps a long conversation's model records bounded: only the messages since the last answer", async () => {
    const big = "x".repeat(MAX_REQUEST_BYTES);
    const tools = journalTools({ fetchPage: tool({ description: "Fetch", inputSchema: z.object({}), execute: async () => big }) }, { store, runId: "long-1" });
    await generateText({
      model: journaled(scripted([{ call: { id: "f-1", name: "fetchPage", input: {} } }, { text: "Read it." }]), { store, runId: "long-1", agent: "reader" }),
      prompt: "Read the page",
      tools,
      stopWhen: stepCountIs(5),
    });
    const second = (await store.record("long-1", "turn:1"))?.payload as { request: { messages: Array<{ role: string }>; omitted?: number } };
    expect(second.request.omitted).toBe(2);
    expect(second.request.messages.map((message) => message.role)).toEqual(["tool"]);
  });
});

describe("bad options", () => {
  it("refuses a middleware without a run id, agent or known mode, and tools without a store", () => {
    const store = new MemStore();
    expect(() => backtrackMiddleware({ store, runId: "", agent: "a" })).toThrow(BadInputError);
    expect(() => backtrackMiddleware({ store, runId: "r", agent: "" })).toThrow(BadInputError);
    expect(() => backtrackMiddleware({ store, runId: "r", agent: "a", mode: "live" as never })).toThrow(/mode must be "record" or "replay"/);
    expect(() => journalTools({}, { store: undefined as never, runId: "r" })).toThrow(BadInputError);
  });
});
