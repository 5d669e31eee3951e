"use client";

/**
 * What became of a decision's resume: the decision endpoints answer once the decision is
 * journaled, and the run's root resumes in a server job; this polls GET /api/jobs/{jobId} until the
 * job has finished and says how the run ended (completed, paused again, failed with its error).
 */
import { useQuery } from "@tanstack/react-query";
import type { JobView } from "@/lib/jobs/view";
import { attemptNote, FINISHED_JOB, getJson } from "../api";

const POLL_MS = 500;

function progressText(runId: string, job: JobView | undefined): string {
  if (!job) return `Resuming ${runId}…`;
  if (job.status === "queued") return `Resume of ${runId} queued: it starts when a job slot is free…${attemptNote(job)}`;
  if (job.status === "running") return `Resuming ${runId}…${attemptNote(job)}`;
  return job.sentence ?? `The resume of ${runId} ended ${job.status}`;
}

export function ResumeProgress({ jobId, runId, onDone }: { jobId: string; runId: string; onDone: () => void }) {
  const job = useQuery({
    queryKey: ["resume-job", jobId],
    queryFn: async () => {
      const answer = await getJson<JobView>(`/api/jobs/${encodeURIComponent(jobId)}`);
      if (FINISHED_JOB.has(answer.status)) onDone();
      return answer;
    },
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && FINISHED_JOB.has(query.state.data.status) ? false : POLL_MS),
  });
  if (job.error && !job.data) {
    return (
      <p role="alert" aria-label="Resume progress" className="status-failed">
        Could not follow the resume of {runId} (job {jobId}): {job.error.message}
      </p>
    );
  }
  const failed = job.data?.status === "failed" || job.data?.status === "interrupted";
  return (
    <p role={failed ? "alert" : "status"} aria-label="Resume progress" className={failed ? "status-failed" : "notice"} data-job={jobId}>
      {progressText(runId, job.data)}
    </p>
  );
}
