import { errorResponse, json } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";
import { recoveryBoard } from "@/lib/recovery/board";

export const dynamic = "force-dynamic";

/** GET /api/recovery → { runs: BoardEntry[] }: every unfinished run, why it waits, and its lease. */
export async function GET() {
  try {
    return json(redacted({ runs: await recoveryBoard(await getStore()) }));
  } catch (error) {
    return errorResponse(error);
  }
}
