import { z } from "zod";
import { json, parseBody, route } from "@/app/_server/http";
import { checkSuiteName, serverSuites } from "@/app/_server/suites";
import { BadInputError } from "@/lib/journal/errors";
import { MAX_NOTE_LENGTH, MAX_PINNED_BY_LENGTH } from "@/lib/suites/errors";
import { pinRun, unpinRun } from "@/lib/suites/pins";

export const dynamic = "force-dynamic";

const pinBody = z
  .object({
    runId: z.string().min(1).max(256),
    note: z.string().max(MAX_NOTE_LENGTH).optional(),
    pinnedBy: z.string().min(1).max(MAX_PINNED_BY_LENGTH).optional(),
  })
  .strict();

const unpinBody = z.object({ runId: z.string().min(1).max(256) }).strict();

/** GET /api/suites/{name}/pins → { suite, pins } */
export const GET = route<{ name: string }>(async (_request, { name }) => {
  const { suites } = await serverSuites();
  return json({ suite: name, pins: await suites.pins(checkSuiteName(name)) });
});

/** POST /api/suites/{name}/pins { runId, note?, pinnedBy? } → 201 { created: true, pin }, or 200 when it was pinned already. */
export const POST = route<{ name: string }>(async (request, { name }) => {
  const asked = await parseBody(request, pinBody);
  const { store, suites } = await serverSuites();
  const outcome = await pinRun(store, suites, { suite: name, runId: asked.runId, note: asked.note, pinnedBy: asked.pinnedBy ?? "inspector" });
  return json(outcome, outcome.created ? 201 : 200);
});

/** DELETE /api/suites/{name}/pins?runId=… (or a body { runId }) → { deleted: { suite, runId } }; 404 when it was not pinned. */
export const DELETE = route<{ name: string }>(async (request, { name }) => {
  const fromQuery = new URL(request.url).searchParams.get("runId");
  const runId = fromQuery ?? (await parseBody(request, unpinBody)).runId;
  if (runId.length === 0 || runId.length > 256) throw new BadInputError("runId: 1 to 256 characters");
  const { suites } = await serverSuites();
  await unpinRun(suites, name, runId);
  return json({ deleted: { suite: name, runId } });
});
