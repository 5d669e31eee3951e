/**
 * OTLP ingest's decoding in the pool: the route hands a request's raw body to a worker (moved, not
 * copied) and gets back its spans sorted by trace; planning and the write stay on the thread that
 * owns the store (PGlite is one connection in this process). Bad input comes back as the same
 * typed error prepareOtlp raises in process (its class re-made from the code and fields), so a
 * pooled request and an in-process one answer alike; a worker that dies fails only its request.
 */
import type { OtlpPreparer } from "../otel/ingest";
import { OtlpBodyError, OtlpTooLargeError, UnsupportedMediaTypeError } from "../otel/errors";
import type { PreparedSpans, RawOtlpBody } from "../otel/prepare";
import { PoolTaskError } from "./errors";
import type { ProjectionPool } from "./pool";

/** A preparer for ingestOtlp that decodes in `pool`'s workers. */
export function pooledOtlpPreparer(pool: ProjectionPool): OtlpPreparer {
  return async (request: RawOtlpBody): Promise<PreparedSpans> => {
    const body = transferable(request.body);
    try {
      return await pool.run("otlpPrepare", { body, contentType: request.contentType, contentEncoding: request.contentEncoding ?? null }, { transfer: [body] });
    } catch (error) {
      throw error instanceof PoolTaskError ? otlpErrorOf(error) : error;
    }
  };
}

/** The body's own buffer when the view covers all of it (moved at no cost), else a copy of the view. */
function transferable(body: Uint8Array): ArrayBuffer {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer) return body.buffer;
  return body.slice().buffer as ArrayBuffer;
}

/** The typed OTLP error a worker raised, made again with its class and fields. */
export function otlpErrorOf(error: PoolTaskError): Error {
  const fields = error.fields;
  if (error.code === "body_too_large") return new OtlpTooLargeError(Number(fields.bytes), Number(fields.limitBytes));
  if (error.code === "unsupported_media_type") return new UnsupportedMediaTypeError(typeof fields.contentType === "string" ? fields.contentType : null);
  if (error.code === "bad_input") return new OtlpBodyError(error.message, { cause: error });
  // No other typed error comes out of prepareOtlp: keep the pool's own.
  return error;
}
