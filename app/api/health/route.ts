import { getStore } from "@/app/_server/store";
import { json, route } from "@/app/_server/http";

export const dynamic = "force-dynamic";

export const GET = route(async () => {
  const store = await getStore();
  await store.runs({ limit: 1 });
  return json({ ok: true, database: store.client.kind });
});
