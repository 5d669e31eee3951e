/**
 * The `fork` job: drives a fork whose copy was written (and its id claimed) when it was asked
 * for (reserveFork), then diffs it against its source. Its output names the diff row to land on:
 * the decision at the fork's step (the edited one), else the first divergence.
 */
import type { Registry } from "../agent/registry";
import { driveFork } from "../fork/fork-run";
import type { Journal } from "../journal/ports";
import type { RunStatus } from "../journal/types";
import { diffRuns } from "../regression/diff-runs";
import type { JobHandler } from "./runner";

export const FORK_JOB = "fork";

export interface ForkJobInput {
  runId: string;
  /** Written by reserveFork when the job was asked for. */
  newRunId: string;
  at: number;
}

export interface ForkJobOutput {
  newRunId: string;
  status: RunStatus;
  paused: string | null;
  error: string | null;
  /** The diff row of the fork's step (or the first divergence; 0 when neither). */
  landAt: number;
  diff: { divergentAt: number | null; summary: Record<string, number> };
}

export function forkJobHandler(store: Journal, registry: Registry): JobHandler {
  return async (input, { signal }): Promise<ForkJobOutput> => {
    const request = input as ForkJobInput;
    const forked = await driveFork(store, request.newRunId, { registry, signal });
    const diff = await diffRuns(store, request.runId, request.newRunId);
    const atStep = diff.steps.find((entry) => (entry.detail.seqB ?? -1) >= request.at);
    return {
      newRunId: forked.newRunId,
      status: forked.status,
      paused: forked.pause?.message ?? null,
      error: forked.error ?? null,
      landAt: atStep?.index ?? diff.divergentAt ?? 0,
      diff: { divergentAt: diff.divergentAt, summary: { ...diff.summary } },
    };
  };
}

export function forkSentence(input: ForkJobInput, output: ForkJobOutput): string {
  const how = output.paused ? `, which paused: ${output.paused}` : output.error ? `, which failed: ${output.error}` : "";
  return `${input.runId} forked at step ${input.at} as ${output.newRunId}${how}`;
}
