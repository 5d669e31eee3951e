/**
 * The worker threads' entry (built into one file by scripts/build-workers.mjs; piscina runs one
 * of these exports per task, by name). Each task's answer comes back in an envelope: a typed
 * error it raised travels as its code and message (a thread boundary keeps neither class nor
 * brand), and any other error as `internal`, so that a rejected task means the worker itself
 * failed (it died, or was stopped).
 */
import { isBacktrackError } from "../journal/errors";
import * as tasks from "./tasks";
import type { Envelope, ErrorFields } from "./envelope";

/** A typed error's own plain fields (OtlpTooLargeError's bytes and limit, …), not its cause. */
function fieldsOf(error: Error): ErrorFields {
  const fields: ErrorFields = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === "code" || key === "name" || key === "cause") continue;
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) fields[key] = value as ErrorFields[string];
  }
  return fields;
}

function enveloped<Input, Output>(task: (input: Input) => Output | Promise<Output>): (input: Input) => Promise<Envelope<Output>> {
  return async (input) => {
    try {
      return { ok: true, value: await task(input) };
    } catch (error) {
      if (isBacktrackError(error)) return { ok: false, code: error.code, message: error.message, fields: fieldsOf(error) };
      return { ok: false, code: "internal", message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
  };
}

export const outlinePage = enveloped(tasks.outlinePage);
export const aggregate = enveloped(tasks.aggregate);
export const mermaid = enveloped(tasks.mermaid);
export const waterfall = enveloped(tasks.waterfall);
export const cost = enveloped(tasks.cost);
export const searchPage = enveloped(tasks.searchPage);
export const search = enveloped(tasks.search);
export const diffRuns = enveloped(tasks.diffRuns);
export const otlpPrepare = enveloped(tasks.otlpPrepare);
