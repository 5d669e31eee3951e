import { json, route } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { BadInputError } from "@/lib/journal/errors";
import { importRuns } from "@/lib/journal/import";

export const dynamic = "force-dynamic";

/** Larger bodies are refused before parsing: an import is a few runs, not a database dump. */
const MAX_BYTES = 20 * 1024 * 1024;

/** POST /api/import (a JSONL body, the `backtrack export` format) → { imported, runs }; all or nothing. */
export const POST = route(async (request) => {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_BYTES) throw new BadInputError(`the import is ${length} bytes; at most ${MAX_BYTES} are accepted (use backtrack import for more)`);
  const text = await request.text();
  if (text.length > MAX_BYTES) throw new BadInputError(`the import is over ${MAX_BYTES} bytes (use backtrack import for more)`);
  if (text.trim() === "") throw new BadInputError("the body is empty: send the JSONL of `backtrack export`");
  return json(await importRuns(await getStore(), text), 201);
});
