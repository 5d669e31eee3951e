import { z } from "zod";
import { accessSettings, REVEAL_READ_ONLY } from "@/app/_server/access";
import { json, notFound, parseQuery, route } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { valueAtPointer } from "@/lib/inspect/redact";
import { BadInputError } from "@/lib/journal/errors";

export const dynamic = "force-dynamic";

const query = z.object({
  path: z
    .string()
    .max(2000)
    .regex(/^(\/[^/]*)*$/, "a JSON Pointer into the record's payload, such as /args/apiKey"),
});
const seqSchema = z.coerce
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);

/**
 * GET /api/runs/{id}/records/{seq}/reveal?path=/json/pointer → `{ runId, seq, path, value }`: one raw
 * value of a record's payload, unredacted: what the inspector's "Reveal" shows. A privileged read:
 * proxy.ts refuses it in read-only mode and across origins, and it needs the token when one is set.
 */
export const GET = route<{ id: string; seq: string }>(async (request, { id, seq: rawSeq }) => {
  // Checked here too, not only in proxy.ts: a secret must never leave a read-only inspector.
  if (accessSettings().readOnly) return json({ error: { code: "read_only", message: REVEAL_READ_ONLY } }, 403);
  const seq = seqSchema.safeParse(rawSeq);
  if (!seq.success) throw new BadInputError(`seq: "${rawSeq}" is not a record number`);
  const { path } = parseQuery(request, query);
  const store = await getStore();
  const [record] = await store.history(id, { from: seq.data, limit: 1 });
  if (!record || record.seq !== seq.data) return notFound(`no record ${seq.data} in run "${id}"`);
  const found = valueAtPointer(record.payload, path);
  if (!found.found) return notFound(`no value at ${path} in record ${seq.data} of run "${id}"`);
  return json({ runId: id, seq: seq.data, path, value: found.value });
});
