import { errorResponse, notFound } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { buildFlow } from "@/lib/inspect/flow";
import { flowToMermaid } from "@/lib/inspect/mermaid";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const store = await getStore();
    if (!(await store.run(id))) return notFound(`no run with id "${id}"`);
    const text = flowToMermaid(buildFlow(await store.history(id)));
    return new Response(text, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
