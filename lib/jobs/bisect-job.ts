/** The `bisect` job: bisectRun on a run (lib/fork/bisect.ts); its output is the BisectResult. */
import type { Registry } from "../agent/registry";
import { bisectRun, type BisectResult } from "../fork/bisect";
import type { Journal } from "../journal/ports";
import type { JobHandler } from "./runner";

export const BISECT_JOB = "bisect";

export interface BisectJobInput {
  runId: string;
  model: string;
  scorer: string;
}

export function bisectJobHandler(store: Journal, registry: Registry): JobHandler {
  return async (input): Promise<BisectResult> => {
    const request = input as BisectJobInput;
    return bisectRun(store, request.runId, { model: request.model, scorer: request.scorer, registry });
  };
}

export function bisectSentence(input: BisectJobInput, output: BisectResult): string {
  return `decision ${output.k} of ${input.runId} flips it under ${input.model} (${output.forks.length} forks)`;
}
