import { errorResponse, json, notFound } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const run = await (await getStore()).run(id);
    return run ? json({ run: redacted(run) }) : notFound(`no run with id "${id}"`);
  } catch (error) {
    return errorResponse(error);
  }
}
