// Journals an agent run into the database named by DATABASE_URL (a PostgreSQL server, or
// pglite:PATH), using Backtrack as a library from plain Node.js. Build the library first
// (`npm run build:lib`), then:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/mydb node examples/journal-a-run.mjs
import { z } from "zod";
import { Agent, openStore, renderMermaid, replayEvents, tool } from "backtrack";
import { scriptedModel } from "backtrack/testing";

const store = await openStore(); // DATABASE_URL, or the embedded database in .backtrack/

const lookup = tool({
  name: "lookupOrder",
  description: "Look an order up by id.",
  input: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ({ orderId, status: "shipped", carrier: "DHL" }),
});

// A scripted model keeps the example offline; swap in any AI SDK model with fromAiSdk(openai("…")).
const model = scriptedModel("example/v1", (request, turn) =>
  turn === 0 ? { toolCalls: [{ name: "lookupOrder", args: { orderId: "A-17" } }] } : { text: "Order A-17 has shipped with DHL." },
);

const runId = process.argv[2] ?? `example-${process.pid}`;
const agent = new Agent({ name: "support", model, store, tools: [lookup] });
const result = await agent.runResult(runId, "Where is my order A-17?");
console.log(`${result.runId}: ${result.text} (${result.turns} turns, ${result.usage.inputTokens}+${result.usage.outputTokens} tokens)`);
console.log((await replayEvents(store, runId)).map((event) => event.type).join(" → "));
console.log(await renderMermaid(store, runId));
await store.close();
