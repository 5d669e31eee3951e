import { z } from "zod";
import { accessSettings, REVEAL_READ_ONLY } from "@/app/_server/access";
import { json, notFound, parseQuery, route } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { wholeNumber } from "@/app/_server/url-input";
import { valueAtPointer } from "@/lib/inspect/redact";
import { SessionService, sessionView } from "@/lib/sessions";

export const dynamic = "force-dynamic";

const query = z.object({
  at: wholeNumber(0),
  path: z
    .string()
    .max(2000)
    .regex(/^\/(event|state)(\/[^/]*)*$/, "a JSON Pointer starting with /event (the event at `at`) or /state (the state after it), such as /state/apiKey"),
});

/**
 * GET /api/sessions/{id}/reveal?at=N&path=/state/apiKey → `{ sessionId, at, path, value }`: one raw
 * value of the session after its first N events, unredacted. The pointer goes into `{ event, state }`:
 * the N-th event (as stored) and the state the inspector shows at N. A privileged read, like the
 * run records' reveal: refused in read-only mode and across origins, and it needs the token when one is set.
 */
export const GET = route<{ id: string }>(async (request, { id }) => {
  // Checked here too, not only in proxy.ts: a secret must never leave a read-only inspector.
  if (accessSettings().readOnly) return json({ error: { code: "read_only", message: REVEAL_READ_ONLY } }, 403);
  const { at, path } = parseQuery(request, query);
  const view = await sessionView(new SessionService((await getStore()).client), id, at);
  const found = valueAtPointer({ event: at > 0 ? view.events[at - 1] : null, state: view.state }, path);
  if (!found.found) return notFound(`no value at ${path} in session "${id}" at event ${at}`);
  return json({ sessionId: id, at, path, value: found.value });
});
