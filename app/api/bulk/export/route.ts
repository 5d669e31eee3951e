import { route } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";
import { toJsonl } from "@/lib/journal/jsonl";
import { bulkRunIds } from "@/lib/suites/bulk";
import { treeRecords } from "@/lib/suites/transfer";

export const dynamic = "force-dynamic";

/**
 * GET /api/bulk/export?run=a&run=b (or ?filter=status%3Dfailed) → the runs and their sub-agent runs
 * as JSONL (the `backtrack export` format, secrets masked), as a download, streamed run by run: a
 * download the user asked for, so it is not cut at the API's default response budget.
 */
export const GET = route(async (request) => {
  const params = new URL(request.url).searchParams;
  const store = await getStore();
  const runIds = await bulkRunIds(store, params.has("filter") ? { filter: params.get("filter") ?? "" } : { runIds: params.getAll("run") });
  const seen = new Set<string>();
  const encoder = new TextEncoder();
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const runId = runIds[next];
      next += 1;
      if (runId === undefined) return controller.close();
      // Secrets are masked as on every page: a raw one leaves the server only through "Reveal".
      controller.enqueue(encoder.encode(toJsonl(redacted(await treeRecords(store, runId, seen)))));
    },
  });
  return new Response(stream, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="backtrack-runs.jsonl"`, "cache-control": "no-store" },
  });
});
