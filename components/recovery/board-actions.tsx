"use client";

/**
 * The recovery board's actions: approve/deny, answer, resolve an unknown outcome (each answered as
 * soon as the decision is journaled, with the job that resumes the run), and "Recover now" (a
 * server job, polled for its summary).
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { AnswerPayload, ApprovalPayload, ResolutionPayload } from "@/lib/agent/payloads";
import { FINISHED_JOB, getJson, postJson } from "../api";

/** A decision endpoint's 202: the decision as recorded (under `decision`, `answer` or `resolution`) and the resume's job. */
type DecisionAnswer<Field extends string, Payload> = { runId: string; jobId: string } & Record<Field, Payload>;

const RESOLVED: Record<ResolutionPayload["outcome"], string> = { succeeded: "it succeeded", failed: "it failed", retry: "retry" };

/**
 * What an action ended with; the board shows it above the list (the run's row may vanish once it
 * completes): the recorded decision, or why it was refused, and the job resuming the run.
 */
export interface ActionResult {
  text: string;
  error: boolean;
  resume?: { jobId: string; runId: string };
}

function recorded(runId: string, what: string, by: string, jobId: string): Omit<ActionResult, "error"> {
  return { text: `Recorded: ${what} (by ${by}).`, resume: { jobId, runId } };
}

function useAction(onDone: (result: ActionResult) => void) {
  const [pending, setPending] = useState(false);
  const run = async (work: () => Promise<Omit<ActionResult, "error">>) => {
    setPending(true);
    let result: ActionResult;
    try {
      result = { ...(await work()), error: false };
    } catch (error) {
      result = { text: error instanceof Error ? error.message : String(error), error: true };
    }
    setPending(false);
    onDone(result);
  };
  return { pending, run };
}

export function DecisionButtons({ runId, by, onDone }: { runId: string; by: string; onDone: (result: ActionResult) => void }) {
  const action = useAction(onDone);
  const decide = (decision: "approve" | "deny") =>
    action.run(async () => {
      const answer = await postJson<DecisionAnswer<"decision", ApprovalPayload>>(`/api/runs/${encodeURIComponent(runId)}/decisions`, {
        decision,
        ...(by.trim() ? { by: by.trim() } : {}),
      });
      const { approved, toolName, by: decidedBy } = answer.decision;
      return recorded(answer.runId, `${approved ? "approved" : "denied"} ${toolName} in ${answer.runId}`, decidedBy, answer.jobId);
    });
  return (
    <div className="board-actions">
      <button type="button" disabled={action.pending} onClick={() => void decide("approve")}>
        Approve
      </button>
      <button type="button" disabled={action.pending} onClick={() => void decide("deny")}>
        Deny
      </button>
    </div>
  );
}

export function AnswerForm({ runId, by, onDone }: { runId: string; by: string; onDone: (result: ActionResult) => void }) {
  const action = useAction(onDone);
  const [text, setText] = useState("");
  return (
    <form
      className="board-actions"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          const answer = await postJson<DecisionAnswer<"answer", AnswerPayload>>(`/api/runs/${encodeURIComponent(runId)}/answers`, {
            text,
            ...(by.trim() ? { by: by.trim() } : {}),
          });
          return recorded(answer.runId, `the answer "${answer.answer.text}" to ${answer.runId}`, answer.answer.by, answer.jobId);
        });
      }}
    >
      <input type="text" aria-label="Answer" placeholder="Your answer" value={text} onChange={(event) => setText(event.target.value)} required />
      <button type="submit" disabled={action.pending || text.trim() === ""}>
        Send answer
      </button>
    </form>
  );
}

type Outcome = ResolutionPayload["outcome"];

/**
 * A halted call, after the person checked downstream: it took effect (with its result, as JSON),
 * it did not (the model is told), or it did not and may run once more.
 */
const BUTTONS = {
  halt: { succeeded: "It succeeded", failed: "It failed", retry: "Retry" },
  // A fork's external tool that has not run (fork_effect): the same resolutions, in a fork's words.
  effect: { succeeded: "Give result", failed: "Fail", retry: "Allow" },
} as const;

export function ResolveForm({ runId, by, onDone, effect = false }: { runId: string; by: string; onDone: (result: ActionResult) => void; effect?: boolean }) {
  const labels = BUTTONS[effect ? "effect" : "halt"];
  const action = useAction(onDone);
  const [result, setResult] = useState("");
  const resolve = (outcome: Outcome) =>
    action.run(async () => {
      let parsed: unknown = null;
      if (outcome === "succeeded" && result.trim() !== "") {
        try {
          parsed = JSON.parse(result);
        } catch {
          throw new Error('The result must be JSON, for example {"receipt": "r-1"}');
        }
      }
      const body = { outcome, ...(outcome === "succeeded" ? { result: parsed } : {}), ...(by.trim() ? { by: by.trim() } : {}) };
      const answer = await postJson<DecisionAnswer<"resolution", ResolutionPayload>>(`/api/runs/${encodeURIComponent(runId)}/resolutions`, body);
      return recorded(answer.runId, `${RESOLVED[answer.resolution.outcome]}, for the call ${answer.runId} halted on`, answer.resolution.by, answer.jobId);
    });
  return (
    <div className="board-actions">
      <input
        type="text"
        aria-label="Result (JSON)"
        placeholder={effect ? 'The result to give it, e.g. {"ok": true}' : 'Result if it succeeded, e.g. {"ok": true}'}
        value={result}
        onChange={(event) => setResult(event.target.value)}
      />
      <button type="button" disabled={action.pending} onClick={() => void resolve("succeeded")}>
        {labels.succeeded}
      </button>
      <button type="button" disabled={action.pending} onClick={() => void resolve("failed")}>
        {labels.failed}
      </button>
      <button type="button" disabled={action.pending} onClick={() => void resolve("retry")}>
        {labels.retry}
      </button>
    </div>
  );
}

interface RecoverJob {
  jobId: string;
  status: string;
  error?: string;
  sentence?: string;
  result?: { runs: Array<{ runId: string; outcome: string; error?: string }> };
}

export function RecoverNow({ onDone }: { onDone: () => void }) {
  const [jobId, setJobId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const job = useQuery({
    queryKey: ["recover-job", jobId],
    queryFn: async () => {
      const answer = await getJson<RecoverJob>(`/api/jobs/${encodeURIComponent(jobId ?? "")}`);
      if (FINISHED_JOB.has(answer.status)) onDone();
      return answer;
    },
    enabled: jobId !== null,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && FINISHED_JOB.has(query.state.data.status) ? false : 500),
  });
  const running = jobId !== null && (!job.data || !FINISHED_JOB.has(job.data.status));
  const start = async () => {
    setFailure(null);
    try {
      setJobId((await postJson<{ jobId: string }>("/api/recover", {})).jobId);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  };
  const data = job.data;
  return (
    <div className="board-actions">
      <button type="button" onClick={() => void start()} disabled={running}>
        Recover now
      </button>
      <span role="status" className="notice" aria-label="Recovery progress">
        {running ? "Recovering…" : data?.status === "done" ? (data.sentence ?? "") : ""}
      </span>
      {failure || data?.status === "failed" || data?.status === "interrupted" ? (
        <span role="alert" className="status-failed">
          {failure ?? `Recovery ${data?.status ?? ""}: ${data?.error ?? ""}`}
        </span>
      ) : null}
      {data?.status === "done" && data.result ? (
        <details>
          <summary>Each run</summary>
          <ul>
            {data.result.runs.map((run) => (
              <li key={run.runId}>
                <span className="mono">{run.runId}</span>: {run.outcome}
                {run.error ? ` (${run.error})` : ""}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
