"use client";

/**
 * Following a background job (GET /api/jobs/{jobId}): polled until it ends. `start` is what the
 * POST answered; the hook gives the job's state and its result, whatever its kind.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { FINISHED_JOB, getJson } from "./api";

export interface FollowedJob<Result> {
  jobId: string;
  kind: string;
  status: "queued" | "running" | "done" | "failed" | "interrupted";
  newRunId?: string;
  error?: string;
  sentence?: string;
  result?: Result;
}

const POLL_MS = 500;

export function useJob<Result>(key: string) {
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useQuery({
    queryKey: [key, jobId],
    queryFn: () => getJson<FollowedJob<Result>>(`/api/jobs/${encodeURIComponent(jobId ?? "")}`),
    enabled: jobId !== null,
    refetchInterval: (query) => (query.state.data && FINISHED_JOB.has(query.state.data.status) ? false : POLL_MS),
    staleTime: 0,
  });
  const status = job.data?.status ?? (jobId ? "queued" : null);
  const failure =
    job.data && (job.data.status === "failed" || job.data.status === "interrupted")
      ? `${job.data.status === "failed" ? "It failed" : "It was interrupted"}: ${job.data.error ?? "no reason given"}`
      : job.error
        ? `Cannot follow the job: ${job.error.message}`
        : null;
  return { follow: setJobId, job: job.data, status, failure };
}
