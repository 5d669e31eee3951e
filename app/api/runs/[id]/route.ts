import { json, notFound, route } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_request, { id }) => {
  const run = await (await getStore()).run(id);
  return run ? json({ run: redacted(run) }) : notFound(`no run with id "${id}"`);
});
