"use client";

/**
 * The run page's "Try this step" button and its playground: at a model turn, the request it was
 * journaled with (GET /api/runs/{id}/tries?at=N) in editors — system prompt, messages, model,
 * how many tries — then "Run tries" (POST …/tries). The tries show side by side with a word diff
 * against the recorded output and the summary line (lib/playground/summary.ts, one projection for
 * CLI, API and page); "Fork with this" forks a try live (POST /api/tries/{id}/fork) and opens it.
 */
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import type { ForkJobOutput } from "@/lib/jobs/fork-job";
import type { JournalRecord } from "@/lib/journal/types";
import type { StepTries, TryResult } from "@/lib/playground/try-step";
import { getJson, postJson } from "../api";
import { useJob } from "../use-job";
import { ModelSelect } from "./model-select";

interface TryButtonProps {
  runId: string;
  at: number;
  record: JournalRecord | undefined;
  models: string[];
  recordedModel: string | null;
}

interface StepRequestView {
  model: string;
  system?: string;
  messages: unknown[];
  tools: string[];
  messagesOmitted?: boolean;
}

function WordDiff({ result }: { result: TryResult }) {
  if (!result.diff) return <pre className="mono try-output">{result.text}</pre>;
  return (
    <pre className="mono try-output" aria-label="Word diff against the recorded output">
      {result.diff.map((part, index) =>
        part.change === "same" ? <span key={index}>{part.text}</span> : part.change === "added" ? <ins key={index}>{part.text}</ins> : <del key={index}>{part.text}</del>,
      )}
    </pre>
  );
}

function TryCard({ result, onFork, busy }: { result: TryResult; onFork: (runId: string) => void; busy: boolean }) {
  return (
    <li className="try-card" aria-label={`Try ${result.index}`}>
      <strong>Try {result.index}</strong>
      <WordDiff result={result} />
      <div className="dialog-buttons">
        {result.runId ? <a href={`/runs/${encodeURIComponent(result.runId)}`}>{result.runId}</a> : null}
        {result.runId ? (
          <button type="button" disabled={busy} onClick={() => onFork(result.runId as string)}>
            Fork with this
          </button>
        ) : null}
      </div>
    </li>
  );
}

function parseMessages(text: string): { messages?: unknown[]; invalid?: string } {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.length > 0 ? { messages: value } : { invalid: "Messages must be a non-empty JSON list" };
  } catch (error) {
    return { invalid: `Messages are not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

interface TryFormProps extends TryButtonProps {
  asked: StepRequestView;
}

/** The editors and the tries; mounted once the journaled request arrived, so it starts from it. */
function TryForm({ runId, at, models, recordedModel, asked, onClose }: TryFormProps & { onClose: () => void }) {
  const router = useRouter();
  const [system, setSystem] = useState(asked.system ?? "");
  const [messagesText, setMessagesText] = useState(JSON.stringify(asked.messages, null, 2));
  const [model, setModel] = useState(recordedModel && models.includes(recordedModel) ? recordedModel : (models[0] ?? ""));
  const [times, setTimes] = useState(10);
  const [tried, setTried] = useState<StepTries | null>(null);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { follow, job, status, failure: jobFailure } = useJob<ForkJobOutput>("try-fork-job");

  useEffect(() => {
    if (job?.status === "done" && job.result) router.push(`/runs/${encodeURIComponent(job.result.newRunId)}`);
  }, [job, router]);

  const parsed = parseMessages(messagesText);
  const run = async (event: React.FormEvent) => {
    event.preventDefault();
    if (parsed.invalid) return;
    setFailure(null);
    setSending(true);
    try {
      const edited = JSON.stringify(parsed.messages) !== JSON.stringify(asked.messages);
      const body = { at, times, model, ...(system !== (asked.system ?? "") ? { system } : {}), ...(edited && !asked.messagesOmitted ? { messages: parsed.messages } : {}) };
      setTried(await postJson<StepTries>(`/api/runs/${encodeURIComponent(runId)}/tries`, body));
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  };
  const fork = async (tryRunId: string) => {
    setFailure(null);
    try {
      follow((await postJson<{ jobId: string }>(`/api/tries/${encodeURIComponent(tryRunId)}/fork`, {})).jobId);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  };
  const forking = status === "queued" || status === "running" || status === "done";
  const problem = failure ?? jobFailure ?? parsed.invalid ?? null;

  return (
    <form onSubmit={(event) => void run(event)}>
      <fieldset disabled={sending}>
        <label>
          System prompt
          <textarea aria-label="System prompt" className="mono fork-editor" rows={3} value={system} onChange={(event) => setSystem(event.target.value)} />
        </label>
        <label>
          Messages (JSON)
          <textarea aria-label="Messages (JSON)" className="mono fork-editor" rows={6} value={messagesText} onChange={(event) => setMessagesText(event.target.value)} />
        </label>
        <label className="choice">
          Model <ModelSelect models={models} recordedModel={recordedModel} value={model} onChange={setModel} />
        </label>
        <label className="choice">
          Tries <input aria-label="Tries" type="number" min={1} max={20} value={times} onChange={(event) => setTimes(Math.max(1, Math.min(20, Number(event.target.value) || 1)))} />
        </label>
      </fieldset>
      <p role="status" className="notice">
        {sending ? "Trying…" : forking ? "Forking…" : ""}
      </p>
      {tried ? (
        <section aria-label="Tries">
          <p className="try-summary">{tried.summary.line}</p>
          <p className="muted">
            Recorded: <span className="mono">{tried.recorded.text}</span>
          </p>
          <ul className="try-grid">
            {tried.tries.map((result) => (
              <TryCard key={result.index} result={result} busy={forking} onFork={(id) => void fork(id)} />
            ))}
          </ul>
        </section>
      ) : null}
      {problem ? (
        <p role="alert" className="error-box">
          {problem}
        </p>
      ) : null}
      <div className="dialog-buttons">
        <button type="submit" disabled={sending || Boolean(parsed.invalid)}>
          Run tries
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </form>
  );
}

export function TryButton(props: TryButtonProps) {
  const { runId, at, record } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = useId();
  const [shown, setShown] = useState(false);
  const [opened, setOpened] = useState(0);
  const isModelTurn = record?.kind === "model";
  const asked = useQuery({
    queryKey: ["try-request", runId, at],
    queryFn: () => getJson<StepRequestView>(`/api/runs/${encodeURIComponent(runId)}/tries?at=${at}`),
    enabled: shown && isModelTurn,
    retry: false,
  });

  return (
    <>
      <button
        type="button"
        disabled={!isModelTurn}
        title={isModelTurn ? undefined : "Pick a model turn to try it again"}
        onClick={() => {
          setOpened((count) => count + 1);
          setShown(true);
          dialog.current?.showModal();
        }}
      >
        Try this step
      </button>
      <dialog ref={dialog} className="dialog try-dialog" aria-labelledby={`${ids}-title`} onClose={() => setShown(false)}>
        <h2 id={`${ids}-title`}>
          Try step {at} of {runId}
        </h2>
        <p className="muted">The model turn&apos;s journaled request, to edit; each try is a run of its own, linked to this step.</p>
        {asked.data ? <TryForm key={opened} {...props} asked={asked.data} onClose={() => dialog.current?.close()} /> : null}
        {asked.error ? (
          <p role="alert" className="error-box">
            {asked.error.message}
          </p>
        ) : null}
        {!asked.data && !asked.error ? <p className="muted">Loading the journaled request…</p> : null}
      </dialog>
    </>
  );
}
