/**
 * Reading an import's HTTP body (a web-standard Request, so no framework): whole, or refused.
 * Over the limit (declared or read) is ImportTooLargeError (413); a body whose length differs from
 * its Content-Length (cut short on the way, as Next's proxy cuts bodies over its own limit) is
 * LengthMismatchError. Either way nothing reaches the database.
 */
import { BadInputError, ImportTooLargeError, LengthMismatchError } from "./errors";
import { HTTP_IMPORT_LIMIT_BYTES } from "./import";

/** How a bounded read refuses: the caller's typed errors (an import's, an OTLP request's). */
export interface BodyRefusals {
  tooLarge(bytes: number, limitBytes: number): Error;
  mismatch(declared: number, received: number): Error;
  /** A Content-Length that is not a byte count; without it such a header is ignored. */
  badLength?(header: string): Error;
}

/**
 * A request's whole body, read as it streams in and stopped as soon as it passes `limitBytes`
 * (declared or read); a body cut short of its Content-Length is refused too.
 */
export async function readBoundedBody(request: Request, limitBytes: number, refuse: BodyRefusals): Promise<Buffer> {
  const header = request.headers.get("content-length");
  let declared = header === null ? undefined : Number(header);
  if (header !== null && !(Number.isInteger(declared) && (declared as number) >= 0)) {
    if (refuse.badLength) throw refuse.badLength(header);
    declared = undefined;
  }
  if (declared !== undefined && declared > limitBytes) throw refuse.tooLarge(declared, limitBytes);
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      received += part.value.byteLength;
      if (received > limitBytes) {
        await reader.cancel();
        throw refuse.tooLarge(received, limitBytes);
      }
      chunks.push(part.value);
    }
  }
  if (declared !== undefined && received !== declared) throw refuse.mismatch(declared, received);
  return Buffer.concat(chunks);
}

const IMPORT_REFUSALS: BodyRefusals = {
  tooLarge: (bytes, limitBytes) => new ImportTooLargeError(bytes, limitBytes),
  mismatch: (declared, received) => new LengthMismatchError(declared, received),
  badLength: (header) => new BadInputError(`Content-Length "${header}" is not a byte count`),
};

export async function readImportBody(request: Request, limitBytes = HTTP_IMPORT_LIMIT_BYTES): Promise<string> {
  return (await readBoundedBody(request, limitBytes, IMPORT_REFUSALS)).toString("utf8");
}
