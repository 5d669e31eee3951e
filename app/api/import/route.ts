import { errorResponse, json } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { BadInputError, ImportTooLargeError, LengthMismatchError } from "@/lib/journal/errors";
import { HTTP_IMPORT_LIMIT_BYTES, importRuns } from "@/lib/journal/import";

export const dynamic = "force-dynamic";

/**
 * The body as text, read whole or refused: over HTTP_IMPORT_LIMIT_BYTES (declared or read) is
 * 413, and a body whose length differs from its Content-Length (cut on the way) is 400. Either
 * way nothing is imported.
 */
async function readBody(request: Request): Promise<string> {
  const header = request.headers.get("content-length");
  const declared = header === null ? undefined : Number(header);
  if (declared !== undefined && !(Number.isInteger(declared) && declared >= 0)) throw new BadInputError(`Content-Length "${header}" is not a byte count`);
  if (declared !== undefined && declared > HTTP_IMPORT_LIMIT_BYTES) throw new ImportTooLargeError(declared, HTTP_IMPORT_LIMIT_BYTES);
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      received += part.value.byteLength;
      if (received > HTTP_IMPORT_LIMIT_BYTES) {
        await reader.cancel();
        throw new ImportTooLargeError(received, HTTP_IMPORT_LIMIT_BYTES);
      }
      chunks.push(part.value);
    }
  }
  if (declared !== undefined && received !== declared) throw new LengthMismatchError(declared, received);
  return Buffer.concat(chunks).toString("utf8");
}

/** POST /api/import (a JSONL body, the `backtrack export` format, at most 64 MiB) → 201 { imported, runs }; all or nothing. */
export async function POST(request: Request) {
  try {
    const text = await readBody(request);
    if (text.trim() === "") throw new BadInputError("the body is empty: send the JSONL of `backtrack export`");
    return json(await importRuns(await getStore(), text), 201);
  } catch (error) {
    return errorResponse(error);
  }
}
