import { json, route } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { BadInputError } from "@/lib/journal/errors";
import { importRuns } from "@/lib/journal/import";
import { readImportBody } from "@/lib/journal/import-body";

export const dynamic = "force-dynamic";

/**
 * POST /api/import (a JSONL body, the `backtrack export` format) → 201 { imported, runs }; all or
 * nothing. At most HTTP_IMPORT_LIMIT_BYTES (64 MiB; 413 import_too_large above it), and never a
 * body whose length differs from its Content-Length (400 length_mismatch).
 */
export const POST = route(async (request) => {
  const text = await readImportBody(request);
  if (text.trim() === "") throw new BadInputError("the body is empty: send the JSONL of `backtrack export`");
  return json(await importRuns(await getStore(), text), 201);
});
