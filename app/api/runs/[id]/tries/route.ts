import { z } from "zod";
import { json, parseBody, route } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { serverRegistry } from "@/app/_server/registry";
import { getStore } from "@/app/_server/store";
import type { Message } from "@/lib/agent/messages";
import { RESPONSE_BUDGET_BYTES } from "@/lib/inspect/budget";
import { BadInputError } from "@/lib/journal/errors";
import { requestAt } from "@/lib/playground/request";
import { MAX_TRIES, tryStep } from "@/lib/playground/try-step";

export const dynamic = "force-dynamic";

const TEXT = 100_000;

const tryBody = z
  .object({
    at: z.number().int().min(1).max(2_000_000_000),
    times: z.number().int().min(1).max(MAX_TRIES).optional(),
    system: z.string().max(TEXT).optional(),
    // The whole message list, as the request's `messages` gave it (checked again by tryStep).
    messages: z.array(z.record(z.string(), z.unknown())).min(1).max(10_000).optional(),
    model: z.string().min(1).max(200).optional(),
  })
  .strict();

/**
 * GET /api/runs/{id}/tries?at=N → { at, turn, model, system?, messages, tools }: the request the
 * model turn at step N was asked (what the playground starts from), secrets redacted, bounded like
 * POST's answer.
 */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const at = Number(new URL(request.url).searchParams.get("at"));
  if (!Number.isSafeInteger(at) || at < 1) throw new BadInputError("at must be the step (seq) of a model turn, a whole number from 1");
  const step = await requestAt(await getStore(), id, at, await serverRegistry());
  const answer = redacted({
    at,
    turn: step.turn,
    model: step.header.model,
    ...(step.request.system ? { system: step.request.system } : {}),
    messages: step.request.messages,
    tools: step.request.tools.map((tool) => tool.name),
  });
  if (JSON.stringify(answer).length <= RESPONSE_BUDGET_BYTES) return json(answer);
  return json({ ...answer, messages: [], messagesOmitted: true });
});

/**
 * POST /api/runs/{id}/tries { at, times?, system?, messages?, model? } → 200 the StepTries: the
 * request as tried, the recorded output, each try (journaled as `<id>~try-<n>`, origin
 * playground) with its word diff, and the summary. 400 `bad_try`, 422 `missing_model`, 404 for an
 * unknown run; nothing runs or is written then. Secrets are redacted; a request whose messages
 * would take the answer past the response budget is answered without them (`messagesOmitted`).
 */
export const POST = route<{ id: string }>(async (request, { id }) => {
  const asked = await parseBody(request, tryBody);
  const tried = await tryStep(await getStore(), id, asked.at, {
    registry: await serverRegistry(),
    ...(asked.times ? { times: asked.times } : {}),
    ...(asked.model ? { model: asked.model } : {}),
    edits: { ...(asked.system !== undefined ? { system: asked.system } : {}), ...(asked.messages ? { messages: asked.messages as unknown as Message[] } : {}) },
  });
  const answer = redacted(tried);
  if (JSON.stringify(answer).length <= RESPONSE_BUDGET_BYTES) return json(answer);
  return json({ ...answer, request: { ...answer.request, messages: [] }, messagesOmitted: true });
});
