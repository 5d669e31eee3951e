/**
 * A job as the generic job endpoint reports it, whatever its kind: its state, its input and
 * output as recorded, and, once it has finished, one line for people saying how it ended.
 */
import { recoverySentence, resumeSentence } from "../recovery/actions";
import { RECOVER_JOB, REPLAY_JOB, RESUME_JOB, type RecoverJobOutput, type ReplayJobInput, type ReplayJobOutput, type ResumeJobInput, type ResumeJobOutput } from "./kinds";
import type { Job, JobStatus } from "./runner";
import { BISECT_JOB, bisectSentence, type BisectJobInput } from "./bisect-job";
import type { BisectResult } from "../fork/bisect";
import { FORK_JOB, forkSentence, type ForkJobInput, type ForkJobOutput } from "./fork-job";

export interface JobView {
  jobId: string;
  kind: string;
  status: JobStatus;
  input: unknown;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Claims so far: more than 1 when a runner died under the job and it ran again. */
  attempts: number;
  maxAttempts: number;
  /** A replay's source run (a resume job names its run in `input`). */
  runId?: string;
  /** The run a replay job writes, claimed before the job started. */
  newRunId?: string;
  error?: string;
  result?: unknown;
  /** How a finished job ended, for people ("refund-900 resumed and completed"). */
  sentence?: string;
}

/** A replay's runs, at the top level where /api/replays/{jobId} always had them. */
function jobRuns(job: Job): Pick<JobView, "runId" | "newRunId"> {
  if (job.kind !== REPLAY_JOB && job.kind !== FORK_JOB) return {};
  const { runId, newRunId } = job.input as ReplayJobInput;
  return { runId, newRunId };
}

/** The run a job drives, left unfinished when the job is cut off (a replay's new run, a resumed run). */
function drivenRun(job: Job): string | undefined {
  if (job.kind === RESUME_JOB) return (job.input as ResumeJobInput).runId;
  if (job.kind === REPLAY_JOB || job.kind === FORK_JOB) return (job.input as ReplayJobInput).newRunId;
  return undefined;
}

function doneSentence(job: Job): string | undefined {
  if (job.output === null) return undefined;
  if (job.kind === RESUME_JOB) return resumeSentence(job.output as ResumeJobOutput);
  if (job.kind === RECOVER_JOB) return recoverySentence(job.output as RecoverJobOutput);
  if (job.kind === BISECT_JOB) return bisectSentence(job.input as BisectJobInput, job.output as BisectResult);
  if (job.kind === FORK_JOB) return forkSentence(job.input as ForkJobInput, job.output as ForkJobOutput);
  if (job.kind === REPLAY_JOB) {
    const output = job.output as ReplayJobOutput;
    return `${(job.input as ReplayJobInput).runId} replayed as ${output.newRunId}${output.paused ? `, which paused: ${output.paused}` : ""}`;
  }
  return undefined;
}

function jobSentence(job: Job): string | undefined {
  if (job.status === "done") return doneSentence(job);
  if (job.status === "failed") return job.error ?? "failed";
  if (job.status !== "interrupted") return undefined;
  // An interrupted job (its runners died, attempts used up) leaves its run unfinished in the journal: recovery finishes it.
  const run = drivenRun(job);
  return `${job.error ?? "interrupted"}; ${run ? `Recover now finishes ${run}` : "start it again"}`;
}

export function jobView(job: Job): JobView {
  const sentence = jobSentence(job);
  return {
    jobId: job.jobId,
    kind: job.kind,
    status: job.status,
    input: job.input,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    ...jobRuns(job),
    ...(job.error ? { error: job.error } : {}),
    ...(job.output !== null ? { result: job.output } : {}),
    ...(sentence ? { sentence } : {}),
  };
}
