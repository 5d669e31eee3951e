"use client";

/**
 * The run page's "Replay" button and its dialog: replay under the recorded outputs
 * (deterministic) or a registry model, optionally with the memory context stripped. The replay
 * runs as a server job; the dialog polls it and, when it is done, opens the diff of the two runs.
 */
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { attemptNote, FINISHED_JOB, getJson, postJson } from "../api";
import { HelpPopover } from "../help-popover";

interface ReplayJob {
  jobId: string;
  status: "queued" | "running" | "done" | "failed" | "interrupted";
  newRunId: string;
  error?: string;
  attempts?: number;
  maxAttempts?: number;
}

const POLL_MS = 500;

export function diffHref(a: string, b: string): string {
  return `/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

interface ReplayChoice {
  mode: "recorded" | "model";
  model: string;
  strip: boolean;
}

/**
 * A replay of `runId` as a server job: `start` posts it, the job is polled until it ends, and when
 * it is done the page moves to the diff of the two runs. `error` says why it could not start or end.
 */
function useReplayJob(runId: string) {
  const router = useRouter();
  const [started, setStarted] = useState<{ jobId: string; newRunId: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const job = useQuery({
    queryKey: ["replay-job", started?.jobId],
    queryFn: () => getJson<ReplayJob>(`/api/jobs/${encodeURIComponent(started?.jobId ?? "")}`),
    enabled: started !== null,
    refetchInterval: (query) => (query.state.data && FINISHED_JOB.has(query.state.data.status) ? false : POLL_MS),
    staleTime: 0,
  });
  const status = job.data?.status ?? (started ? "queued" : null);

  useEffect(() => {
    if (job.data?.status === "done") router.push(diffHref(runId, job.data.newRunId));
  }, [job.data, router, runId]);

  const reset = () => {
    setStarted(null);
    setFailure(null);
  };

  const start = async ({ mode, model, strip }: ReplayChoice) => {
    setFailure(null);
    setSending(true);
    try {
      const answer = await postJson<{ jobId: string; newRunId: string }>(`/api/runs/${encodeURIComponent(runId)}/replays`, {
        mode,
        ...(mode === "model" ? { model } : {}),
        ...(strip ? { stripMemoryContext: true } : {}),
      });
      setStarted(answer);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  };

  const busy = sending || status === "queued" || status === "running" || status === "done";
  const jobError =
    job.data && (job.data.status === "failed" || job.data.status === "interrupted")
      ? `The replay ${job.data.status === "failed" ? "failed" : "was interrupted"}: ${job.data.error ?? "no reason given"}`
      : null;
  const error = failure ?? jobError ?? (job.error ? `Cannot follow the replay: ${job.error.message}` : null);
  const progress =
    status === "queued"
      ? `Queued…${attemptNote(job.data)}`
      : status === "running"
        ? `Replaying…${attemptNote(job.data)}`
        : status === "done"
          ? `Done: opening the diff with ${job.data?.newRunId ?? ""}…`
          : sending
            ? "Starting…"
            : "";
  return { start, reset, busy, error, progress };
}

export function ReplayButton({ runId, models }: { runId: string; models: string[] }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = useId();
  const [mode, setMode] = useState<"recorded" | "model">("recorded");
  const [model, setModel] = useState(models.includes("demo/v2") ? "demo/v2" : (models[0] ?? ""));
  const [strip, setStrip] = useState(false);
  const { start, reset, busy, error: shown, progress } = useReplayJob(runId);

  const open = () => {
    reset();
    dialog.current?.showModal();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    await start({ mode, model, strip });
  };

  return (
    <>
      <button type="button" onClick={open}>
        Replay
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={`${ids}-title`}>
        <form onSubmit={(event) => void submit(event)}>
          <h2 id={`${ids}-title`}>Replay {runId}</h2>
          <p className="muted">Runs this run&apos;s recorded input again as a new run, then shows the diff of the two.</p>
          <fieldset disabled={busy}>
            <legend>Model</legend>
            <label className="choice">
              <input type="radio" name="mode" value="recorded" checked={mode === "recorded"} onChange={() => setMode("recorded")} />
              Recorded outputs (deterministic: no model is called)
            </label>
            <label className="choice">
              <input type="radio" name="mode" value="model" checked={mode === "model"} onChange={() => setMode("model")} disabled={models.length === 0} />A model from the registry
            </label>
            <label className="choice indent">
              Registry model{" "}
              <select aria-label="Registry model" value={model} onChange={(event) => setModel(event.target.value)} disabled={mode !== "model"}>
                {models.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label className="choice">
              <input type="checkbox" checked={strip} onChange={(event) => setStrip(event.target.checked)} />
              Strip memory context
            </label>{" "}
            <HelpPopover label="About stripping memory context">
              <p>Memory off: each turn keeps only its own incoming messages (needs the run&apos;s memory record). The system text is untouched: it is replayed as recorded.</p>
            </HelpPopover>
          </fieldset>
          <p role="status" className="notice">
            {progress}
          </p>
          {shown ? (
            <p role="alert" className="error-box">
              {shown}
            </p>
          ) : null}
          <div className="dialog-buttons">
            <button type="submit" disabled={busy}>
              Start replay
            </button>
            <button type="button" onClick={() => dialog.current?.close()}>
              Close
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
