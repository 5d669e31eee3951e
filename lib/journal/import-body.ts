/**
 * Reading an import's HTTP body (a web-standard Request, so no framework): whole, or refused.
 * Over the limit (declared or read) is ImportTooLargeError (413); a body whose length differs from
 * its Content-Length (cut short on the way, as Next's proxy cuts bodies over its own limit) is
 * LengthMismatchError. Either way nothing reaches the database.
 */
import { BadInputError, ImportTooLargeError, LengthMismatchError } from "./errors";
import { HTTP_IMPORT_LIMIT_BYTES } from "./import";

export async function readImportBody(request: Request, limitBytes = HTTP_IMPORT_LIMIT_BYTES): Promise<string> {
  const header = request.headers.get("content-length");
  const declared = header === null ? undefined : Number(header);
  if (declared !== undefined && !(Number.isInteger(declared) && declared >= 0)) throw new BadInputError(`Content-Length "${header}" is not a byte count`);
  if (declared !== undefined && declared > limitBytes) throw new ImportTooLargeError(declared, limitBytes);
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      received += part.value.byteLength;
      if (received > limitBytes) {
        await reader.cancel();
        throw new ImportTooLargeError(received, limitBytes);
      }
      chunks.push(part.value);
    }
  }
  if (declared !== undefined && received !== declared) throw new LengthMismatchError(declared, received);
  return Buffer.concat(chunks).toString("utf8");
}
