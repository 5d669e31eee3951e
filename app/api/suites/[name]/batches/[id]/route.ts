import { json, route } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { checkSuiteName, serverSuites } from "@/app/_server/suites";
import { batchView } from "@/lib/suites/view";

export const dynamic = "force-dynamic";

/** GET /api/suites/{name}/batches/{id} → { batch, results (each with diffLink), counts, previous: { batch, comparison } | null } */
export const GET = route<{ name: string; id: string }>(async (_request, { name, id }) => {
  const { suites } = await serverSuites();
  // A divergence in words quotes tool arguments: redacted like every recorded value the server sends.
  return json(redacted(await batchView(suites, checkSuiteName(name), id)));
});
