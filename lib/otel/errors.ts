/** The typed errors of OTLP ingest (each maps to the HTTP status OTLP/HTTP prescribes). */
import { BacktrackError } from "../journal/errors";

/** A body that is not an ExportTraceServiceRequest (400: the exporter must not retry it). */
export class OtlpBodyError extends BacktrackError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("bad_input", message, options);
  }
}

/** A body over OTLP_BODY_LIMIT_BYTES, compressed or decompressed (413). */
export class OtlpTooLargeError extends BacktrackError {
  constructor(
    readonly bytes: number,
    readonly limitBytes: number,
  ) {
    super("body_too_large", `the OTLP body is over the ${limitBytes}-byte (${limitBytes / 1024 / 1024} MiB) limit: send smaller batches`);
  }
}

/** A Content-Type (or Content-Encoding) other than OTLP protobuf or JSON, gzip or none (415). */
export class UnsupportedMediaTypeError extends BacktrackError {
  constructor(readonly contentType: string | null) {
    super("unsupported_media_type", `${contentType ?? "no Content-Type"} is not accepted: send application/x-protobuf or application/json, gzip or not`);
  }
}
