import { json, parseBody, route } from "@/app/_server/http";
import { serverRegistry } from "@/app/_server/registry";
import { getStore } from "@/app/_server/store";
import { forkPlan } from "@/lib/fork/plan";
import { forkBody, forkOptions } from "../schema";

export const dynamic = "force-dynamic";

/**
 * POST /api/runs/{id}/forks/plan (the same body as /forks) → 200 the ForkPlan: the tools that may
 * run live after the step, with their effects class and whether the fork halts before them. It
 * checks what the fork would check (the same errors) and writes nothing: the dialog's validation.
 */
export const POST = route<{ id: string }>(async (request, { id }) => {
  const asked = await parseBody(request, forkBody);
  return json(await forkPlan(await getStore(), id, forkOptions(asked, await serverRegistry())));
});
