import { json, route } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";
import { recoveryBoard } from "@/lib/recovery/board";

export const dynamic = "force-dynamic";

/** GET /api/recovery → { runs: BoardEntry[] }: every unfinished run, why it waits, and its lease. */
export const GET = route(async () => {
  return json(redacted({ runs: await recoveryBoard(await getStore()) }));
});
