/**
 * A run that carries secrets in every place a hostile reader would look: under secret keys, inside
 * a URL's query string, in an Authorization header, in model text, in a tool's output, and two
 * different secrets under one key in two runs (the diff must keep them apart).
 */
import type { Journal } from "@/lib/journal/ports";

export const SECRETS = {
  apiKey: "sk-live-4f9c2e7a1b3d5f8e0c6a9b2d",
  queryKey: "q7Z3xK9pL2mN8vB4",
  bearer: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2VjcmV0LXNpZ25hdHVyZQ",
  other: "sk-live-0000aaaa1111bbbb2222cccc",
};

/** Writes run `runId`; `apiKey` is the secret under `apiKey` (the diff test varies it). */
export async function writeSecretRun(store: Journal, runId: string, apiKey: string = SECRETS.apiKey): Promise<void> {
  const args = { apiKey, url: `https://x.example/v1/charge?api_key=${SECRETS.queryKey}&amount=5`, headers: { authorization: `Bearer ${SECRETS.bearer}` } };
  await store.append({ runId, name: "run:start", kind: "header", payload: { agent: "billing", model: "demo/v1", tools: ["charge"], input: `Charge with key ${apiKey} please` } });
  await store.append({
    runId,
    name: "turn:0",
    kind: "model",
    payload: {
      message: {
        role: "assistant",
        content: [
          { type: "text", text: `Using Bearer ${SECRETS.bearer}` },
          { type: "tool-call", toolCallId: "c1", toolName: "charge", args },
        ],
      },
      usage: { inputTokens: 10, outputTokens: 5 },
    },
  });
  await store.append({ runId, name: "turn:0:call:0:attempt", kind: "attempt", payload: { toolName: "charge", toolCallId: "c1", args } });
  await store.append({
    runId,
    name: "turn:0:call:0:result",
    kind: "tool_result",
    payload: { toolName: "charge", toolCallId: "c1", args, result: { ok: true, echoed: args.url, token: apiKey }, isError: false },
  });
}
