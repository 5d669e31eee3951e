import { notFound, route } from "@/app/_server/http";
import { changeStream } from "@/app/_server/live";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";

export const dynamic = "force-dynamic";

/**
 * Server-sent events for one run: `hello` with its summary, then `change` events
 * ({ changes: [{ runId, seq, status }] }) as records are appended or its status changes. The
 * run is also read every few seconds, so a lost note delays a change but never hides it.
 */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const store = await getStore();
  if (!(await store.run(id))) return notFound(`no run with id "${id}"`);
  return changeStream(
    request,
    (note) => note.runId === id,
    async () => ({ run: redacted(await store.run(id)) }),
    async () => {
      const run = await store.run(id);
      return run && { runId: id, seq: run.lastSeq, status: run.status };
    },
  );
});
