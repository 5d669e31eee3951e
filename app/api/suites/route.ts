import { json, route } from "@/app/_server/http";
import { serverSuites } from "@/app/_server/suites";

export const dynamic = "force-dynamic";

/** GET /api/suites → { suites: [{ suite, pins, lastBatch }] } */
export const GET = route(async () => {
  const { suites } = await serverSuites();
  return json({ suites: await suites.suites() });
});
