/**
 * An AI SDK run in the regression tools, on every store: replayRun under the recorded outputs and
 * under another registered model (the app's tools registered with fromAiSdkTools), and diffRuns
 * between the AI SDK run and the native replays.
 */
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromAiSdk } from "@/lib/agent/ai-sdk";
import { Agent } from "@/lib/agent/agent";
import { Registry } from "@/lib/agent/registry";
import { describeTool } from "@/lib/agent/tool";
import { fromAiSdkTools } from "@/lib/ai-sdk/registry-tools";
import { journalTools } from "@/lib/ai-sdk/tools";
import type { Journal } from "@/lib/journal/ports";
import { diffRuns } from "@/lib/regression/diff-runs";
import { replayRun } from "@/lib/regression/replay-run";
import { STORE_KINDS } from "../helpers/databases";
import { journaled, scripted, weatherTools, WEATHER_LOOP } from "./helpers";

describe.each(STORE_KINDS)("an AI SDK run replayed and diffed: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  const { tools, executions } = weatherTools();
  const registry = new Registry()
    .registerAgent({
      name: "weather-app",
      create: (journal, model) => new Agent({ name: "weather-app", store: journal, model: model ?? fromAiSdk(scripted(WEATHER_LOOP)), tools: fromAiSdkTools(tools) }),
    })
    .registerModel({ name: "cloudy", create: () => fromAiSdk(scripted([WEATHER_LOOP[0]!, { text: "Cloudy in Lisbon." }]), { id: "cloudy" }) });

  beforeAll(async () => {
    store = await kind.open();
    await generateText({
      model: journaled(scripted(WEATHER_LOOP), { store, runId: "source", agent: "weather-app" }),
      system: "Be brief.",
      prompt: "Weather in Lisbon?",
      tools: journalTools(tools, { store, runId: "source" }),
      stopWhen: stepCountIs(5),
    });
  });
  afterAll(async () => {
    await store.close();
  });

  it("replays under its recorded outputs with no divergence", async () => {
    const replayed = await replayRun({ journal: store, runId: "source", model: "recorded", registry });
    expect(replayed.result?.text).toBe("Sunny in Lisbon, 24°C.");
    const diff = await diffRuns(store, "source", replayed.newRunId);
    expect(diff.divergentAt).toBeNull();
    expect(diff.steps.map((entry) => entry.status)).toEqual(["same", "same", "same"]);
  });

  it("replays under another registered model; the diff finds the changed answer", async () => {
    const before = executions.length;
    const replayed = await replayRun({ journal: store, runId: "source", model: "cloudy", registry });
    expect(replayed.model).toBe("cloudy");
    expect(replayed.result?.text).toBe("Cloudy in Lisbon.");
    // The replay is a native run of the app's own tools.
    expect(executions.length).toBe(before + 1);
    expect(await store.record(replayed.newRunId, "run:start")).toMatchObject({ payload: { replayOf: "source", system: "Be brief.", tools: ["weather"] } });
    const diff = await diffRuns(store, "source", replayed.newRunId);
    expect(diff.divergentAt).toBe(2);
    expect(diff.steps.map((entry) => entry.status)).toEqual(["same", "same", "changed"]);
  });

  it("fromAiSdkTools keeps each tool's input schema, from zod or from a JSON schema", () => {
    const [weather] = fromAiSdkTools(tools);
    expect(describeTool(weather!).inputSchema).toMatchObject({ type: "object", properties: { city: { type: "string" } }, required: ["city"] });
    const [lookup] = fromAiSdkTools({
      lookup: tool({
        description: "Look up",
        inputSchema: jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
        execute: async ({ id }) => id,
      }),
    });
    expect(describeTool(lookup!).inputSchema).toMatchObject({ type: "object", properties: { id: { type: "string" } }, required: ["id"] });
    expect(lookup!.input.safeParse({ id: 3 }).success).toBe(false);
  });
});
