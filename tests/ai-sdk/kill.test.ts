/**
 * A real crash between an AI SDK tool's attempt and its result: a child process running the app
 * (tests/fixtures/ai-sdk-child.ts) is killed with SIGKILL right after the tool's effect, on the
 * PostgreSQL server. The same app run again with the same run id halts instead of repeating the
 * effect, and goes on once a person resolves the call.
 */
import { generateText, stepCountIs, tool } from "ai";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { isPause } from "@/lib/agent/pauses";
import { journalTools } from "@/lib/ai-sdk/tools";
import { resolveHalt } from "@/lib/recovery/pause-decisions";
import { openStore, type PostgresStore } from "@/lib/store";
import { freshServerDatabase } from "../helpers/databases";
import { startTs } from "../helpers/processes";
import { journaled, scripted, WEATHER_LOOP } from "./helpers";

describe("an AI SDK app killed between a tool's attempt and its result: server", () => {
  let database: Awaited<ReturnType<typeof freshServerDatabase>>;
  let store: PostgresStore;
  let sql: postgres.Sql;

  beforeAll(async () => {
    database = await freshServerDatabase();
    store = await openStore({ url: database.url });
    sql = postgres(database.url, { max: 1, onnotice: () => undefined });
    await sql`create table ai_sdk_effects (run_id text, city text)`;
  });
  afterAll(async () => {
    await sql.end();
    await store.close();
    await database.drop();
  });

  const effects = async (runId: string) => Number((await sql`select count(*) as n from ai_sdk_effects where run_id = ${runId}`)[0]?.n);

  it("halts on the next run instead of repeating the effect, and goes on after a resolution", async () => {
    const child = startTs("tests/fixtures/ai-sdk-child.ts", [database.url, "killed-1"]);
    await child.waitFor(/^executed$/);
    child.process.kill("SIGKILL");
    await child.exited;
    expect((await store.history("killed-1")).map((record) => record.name)).toEqual(["run:start", "turn:0", "turn:0:call:0:attempt"]);
    expect(await effects("killed-1")).toBe(1);

    const tools = {
      weather: tool({
        description: "Current weather in a city",
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          await sql`insert into ai_sdk_effects (run_id, city) values ('killed-1', ${city})`;
          return { city, sky: "sunny", celsius: 24 };
        },
      }),
    };
    const app = () =>
      generateText({
        model: journaled(scripted(WEATHER_LOOP), { store, runId: "killed-1", agent: "weather-app" }),
        prompt: "Weather in Lisbon?",
        tools: journalTools(tools, { store, runId: "killed-1" }),
        stopWhen: stepCountIs(5),
      });
    const halted = await app().catch((error: unknown) => error);
    expect(isPause(halted)).toBe(true);
    expect(halted).toMatchObject({ reason: "halt", recordName: "turn:0:call:0:attempt" });
    expect(await store.run("killed-1")).toMatchObject({ status: "paused", pause: { reason: "halt", toolName: "weather" } });
    expect(await effects("killed-1")).toBe(1);

    await resolveHalt(store, "killed-1", { outcome: "succeeded", result: { city: "Lisbon", sky: "sunny", celsius: 24 }, by: "ops" });
    expect((await app()).text).toBe("Sunny in Lisbon, 24°C.");
    expect(await effects("killed-1")).toBe(1);
    expect(await store.run("killed-1")).toMatchObject({ status: "complete" });
  });
});
