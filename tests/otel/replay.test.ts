/**
 * Issue 14: an ingested run is a run like any other. Where content was captured, a recorded replay
 * re-emits its model turns and reaches the same answer, replayRun under a registry model yields a
 * native run to diff against, and the store notifies listeners as spans arrive (live pages).
 * Where content was not captured, a replay says why it cannot run (no_recorded_input).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "@/lib/agent/agent";
import { Registry } from "@/lib/agent/registry";
import { scriptedModel } from "@/lib/agent/scripted";
import { tool } from "@/lib/agent/tool";
import type { Journal } from "@/lib/journal/ports";
import type { JournalNotification } from "@/lib/journal/types";
import { ingestOtlp } from "@/lib/otel/ingest";
import { encodeResponse } from "@/lib/otel/response";
import { diffRuns } from "@/lib/regression/diff-runs";
import { replayRun } from "@/lib/regression/replay-run";
import { STORE_KINDS } from "../helpers/databases";
import { startCollector, tracedGenerateText, type Collector } from "./clients";
import { payload, plannerTrace } from "./genai";

const weather = tool({ name: "weather", description: "the weather", input: z.object({ city: z.string() }), execute: ({ city }) => ({ city, sky: "sunny" }) });

function registry(): Registry {
  const script = [{ toolCalls: [{ name: "weather", args: { city: "Paris" } }] }, { text: "Sunny in Paris" }];
  return new Registry().registerModel({ name: "weather/v2", create: () => scriptedModel("weather/v2", script) }).registerAgent({
    name: "weather-agent",
    create: (store, model) => new Agent({ name: "weather-agent", model: model ?? scriptedModel("weather/v2", script), store, tools: [weather] }),
  });
}

describe.each(STORE_KINDS)("replaying ingested runs: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  let collector: Collector;
  const notes: JournalNotification[] = [];

  beforeAll(async () => {
    store = await kind.open();
    await store.subscribe((note) => notes.push(note));
    collector = await startCollector(async (request) => encodeResponse(await ingestOtlp(store, request), request.contentType));
    await tracedGenerateText({ url: collector.url, exporter: "proto", runId: "weather-otel" });
  });
  afterAll(async () => {
    await collector.close();
    await store.close();
  });

  it("notifies listeners when spans are journaled, as the inspector's live pages need", async () => {
    await expect.poll(() => notes.filter((note) => note.runId === "weather-otel").at(-1)).toMatchObject({ runId: "weather-otel", seq: 5, status: "complete" });
  });

  it("replays the run from its recorded model turns to the same answer", async () => {
    const replay = await replayRun({ journal: store, runId: "weather-otel", model: "recorded", registry: registry() });
    expect(replay.result?.message).toBeDefined();
    expect((await store.run(replay.newRunId))?.status).toBe("complete");
    const diff = await diffRuns(store, "weather-otel", replay.newRunId);
    expect(diff.divergentAt).toBeNull();
  });

  it("replays it under a registry model, yielding a native run to diff against", async () => {
    const replay = await replayRun({ journal: store, runId: "weather-otel", model: "weather/v2", registry: registry() });
    const run = await store.run(replay.newRunId);
    expect(run).toMatchObject({ origin: "replay", status: "complete", agent: "weather-agent" });
    expect((await diffRuns(store, "weather-otel", replay.newRunId)).divergentAt).toBeNull();
  });

  it("says why a run without captured content cannot be replayed", async () => {
    const bare = plannerTrace("no-content").map((span) => {
      const attributes = Object.fromEntries(Object.entries(span.attributes).filter(([key]) => !key.includes("messages")));
      return { ...span, attributes };
    });
    await ingestOtlp(store, { body: Buffer.from(payload(bare, "1af7651916cd43dd8448eb211c80319c")), contentType: "application/json" });
    expect((await store.run("no-content"))?.status).toBe("complete");
    await expect(replayRun({ journal: store, runId: "no-content", model: "recorded", registry: registry() })).rejects.toMatchObject({ code: "no_recorded_input" });
  });
});
