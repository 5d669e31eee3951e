import { route } from "@/app/_server/http";
import { changeStream } from "@/app/_server/live";
import { getStore } from "@/app/_server/store";

export const dynamic = "force-dynamic";

/** Server-sent events for every run: `change` events ({ changes: [{ runId, seq, status }] }), for live lists. */
export const GET = route(async (request) => {
  await getStore();
  return changeStream(
    request,
    () => true,
    async () => ({ ok: true }),
  );
});
