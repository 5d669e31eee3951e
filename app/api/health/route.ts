import { getStore } from "@/app/_server/store";
import { errorResponse, json } from "@/app/_server/http";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const store = await getStore();
    await store.runs({ limit: 1 });
    return json({ ok: true, database: store.client.kind });
  } catch (error) {
    return errorResponse(error);
  }
}
