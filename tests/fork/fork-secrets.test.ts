/**
 * A fork's edit of a record that holds secrets, on MemStore, PGlite and the server: the dialog's
 * editor starts from the redacted record (no raw secret), a marker left in the edit keeps the
 * recorded secret in the fork (never the marker text), and a marker that cannot be matched is a
 * typed refusal that names no secret and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "@/lib/agent/agent";
import type { ToolResultPayload } from "@/lib/agent/payloads";
import { Registry } from "@/lib/agent/registry";
import { tool } from "@/lib/agent/tool";
import { demoModel } from "@/lib/demo/models";
import { forkRun } from "@/lib/fork";
import { ForkError } from "@/lib/fork/errors";
import { REDACTED, redactSecrets } from "@/lib/inspect/redact";
import type { Journal } from "@/lib/journal/ports";
import type { JournalRecord } from "@/lib/journal/types";
import { initialText } from "@/components/run/fork-edit";
import { STORE_KINDS } from "../helpers/databases";

const API_KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c";
const PASSWORD = "correct-horse-battery";

/** A billing agent whose charge tool answers with secrets: one under a secret key, two inside a string. */
function secretRegistry(): Registry {
  const charge = tool({
    name: "chargeCard",
    description: "Charge an order.",
    input: z.object({ orderId: z.string(), amount: z.number() }),
    execute: ({ orderId, amount }) => ({
      charged: amount,
      orderId,
      receipt: `rcpt-${orderId}`,
      apiKey: API_KEY,
      retry: `curl -H "Authorization: Bearer ${API_KEY}" https://pay.example/retry?password=${PASSWORD}`,
    }),
  });
  return new Registry()
    .registerModel({ name: "demo/v1", create: () => demoModel("v1") })
    .registerAgent({ name: "billing", create: (store, model) => new Agent({ name: "billing", model: model ?? demoModel("v1"), store, tools: [charge] }) });
}

describe.each(STORE_KINDS)("fork edits keep secrets masked: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  const registry = secretRegistry();
  let source: JournalRecord;

  beforeAll(async () => {
    store = await kind.open();
    await registry.agent("billing", store).run("secret-order", "Please charge order 77.");
    source = (await store.history("secret-order")).find((record) => record.kind === "tool_result")!;
  });
  afterAll(async () => {
    await store.close();
  });

  it("starts the editor from the redacted record and keeps the recorded secrets for the markers left in the edit", async () => {
    // What the records API sends the dialog, and so what its editor starts from.
    const shown = redactSecrets(source) as JournalRecord;
    const text = initialText(shown, "result");
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(PASSWORD);
    expect(text).toContain(REDACTED);

    const edited = { ...(JSON.parse(text) as Record<string, unknown>), charged: 450 };
    const forked = await forkRun(store, "secret-order", { at: source.seq, edit: { kind: "result", result: edited }, registry });
    const record = (await store.history(forked.newRunId))[source.seq]!;
    const result = (record.payload as ToolResultPayload).result as Record<string, unknown>;
    expect(result).toEqual({ ...((source.payload as ToolResultPayload).result as object), charged: 450 });
    expect(JSON.stringify(await store.history(forked.newRunId))).not.toContain(REDACTED);
  });

  it("keeps the secrets of a string edited around its markers, in their order", async () => {
    const forked = await forkRun(store, "secret-order", {
      at: source.seq,
      edit: { kind: "result", result: { charged: 1, retry: `curl -v -H "Authorization: Bearer ${REDACTED}" https://pay.example/again?password=${REDACTED}` } },
      registry,
    });
    const result = ((await store.history(forked.newRunId))[source.seq]!.payload as ToolResultPayload).result as Record<string, unknown>;
    expect(result.retry).toBe(`curl -v -H "Authorization: Bearer ${API_KEY}" https://pay.example/again?password=${PASSWORD}`);
  });

  it("refuses a marker it cannot match with a typed error that names no secret, and writes nothing", async () => {
    const forksBefore = (await store.runs({ limit: 100 })).runs.length;
    for (const result of [
      { charged: 1, retry: `only ${REDACTED}` },
      { charged: 1, note: REDACTED },
    ]) {
      const error = await forkRun(store, "secret-order", { at: source.seq, edit: { kind: "result", result }, registry }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(ForkError);
      expect((error as ForkError).code).toBe("bad_fork");
      expect((error as Error).message).toContain("redaction marker");
      expect((error as Error).message).not.toContain(API_KEY);
      expect((error as Error).message).not.toContain(PASSWORD);
    }
    expect((await store.runs({ limit: 100 })).runs.length).toBe(forksBefore);
  });
});
