// An AI SDK app journaled by Backtrack: a generateText tool loop whose run shows in the inspector
// (flowchart, timeline, state at each step, diff, replay). With the inspector running (`npm start`)
// and the library built (`npm run build:lib`), in another terminal:
//   node examples/ai-sdk-app.mjs [run id]
// It writes into the inspector's database (the embedded one in .backtrack/, shared through the
// inspector's process, or DATABASE_URL's). Run it again with the same run id: it resumes from the
// journal, asks the model nothing and runs no tool twice.
import { generateText, stepCountIs, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { backtrackMiddleware, journalTools, openStore } from "backtrack";

// A scripted model keeps the example offline; use any AI SDK model instead, e.g. openai("gpt-5").
const usage = (input, output) => ({ inputTokens: { total: input }, outputTokens: { total: output } });
const provider = new MockLanguageModelV3({
  provider: "example",
  modelId: "weather-v1",
  doGenerate: async ({ prompt }) =>
    prompt.some((message) => message.role === "tool")
      ? { content: [{ type: "text", text: "It is sunny in Lisbon, 24°C." }], finishReason: { unified: "stop" }, usage: usage(42, 9), warnings: [] }
      : {
          content: [{ type: "tool-call", toolCallId: "call-1", toolName: "weather", input: JSON.stringify({ city: "Lisbon" }) }],
          finishReason: { unified: "tool-calls" },
          usage: usage(30, 7),
          warnings: [],
        },
});

const weather = tool({
  description: "The current weather in a city.",
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, sky: "sunny", celsius: 24 }),
});

const store = await openStore(); // DATABASE_URL, or the embedded database in .backtrack/
const runId = process.argv[2] ?? `ai-sdk-${Date.now().toString(36)}`;

// The two lines: journal the model's calls and the tools' executions under one run id.
const model = wrapLanguageModel({ model: provider, middleware: backtrackMiddleware({ store, runId, agent: "weather-app" }) });
const tools = journalTools({ weather }, { store, runId });

const result = await generateText({ model, tools, system: "Answer in one sentence.", prompt: "What is the weather in Lisbon?", stopWhen: stepCountIs(5) });
console.log(`${runId}: ${result.text}`);
console.log(`see it at http://127.0.0.1:3000/runs/${encodeURIComponent(runId)}`);
await store.close();
