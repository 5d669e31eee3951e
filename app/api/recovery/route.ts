import { json, route } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";
import { boardView, recoveryBoard } from "@/lib/recovery/board";

export const dynamic = "force-dynamic";

/**
 * GET /api/recovery[?imported=1] → { runs: BoardEntry[], hiddenImported }: every unfinished run
 * recovery drives, why it waits, and its lease; imported runs too with imported=1 (each entry says its origin).
 */
export const GET = route(async (request) => {
  const includeImported = new URL(request.url).searchParams.get("imported") === "1";
  return json(redacted(boardView(await recoveryBoard(await getStore(), { includeImported: true }), { includeImported })));
});
