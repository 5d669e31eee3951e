"use client";

/**
 * The run page's "Fork from here" button and its dialog: the record at the step in an editor
 * (validated as you type, then checked by the server's plan), a model, and the plan (the tools
 * that may run live after the step, with their effects class) with "Allow external effects",
 * unchecked. Submitting posts the fork; the dialog follows its job and opens the diff at the step.
 */
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import type { ForkPlan } from "@/lib/fork/plan";
import type { ForkJobOutput } from "@/lib/jobs/fork-job";
import type { JournalRecord } from "@/lib/journal/types";
import { postJson } from "../api";
import { diffHref } from "../links";
import { useJob } from "../use-job";
import { ModelSelect } from "./model-select";
import { editFrom, editorKind, initialText, MODE_LABELS, modesFor, type EditMode } from "./fork-edit";

const CHECK_DELAY_MS = 250;

interface ForkButtonProps {
  runId: string;
  at: number;
  record: JournalRecord | undefined;
  models: string[];
  recordedModel: string | null;
}

/** The server's plan for what the dialog holds now, asked for once typing pauses. */
function usePlan(runId: string, body: Record<string, unknown> | null) {
  const [asked, setAsked] = useState(body);
  const key = JSON.stringify(body);
  useEffect(() => {
    const timer = setTimeout(() => setAsked(body), CHECK_DELAY_MS);
    return () => clearTimeout(timer);
    // The body is compared by its JSON text (a new object each render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return useQuery({
    queryKey: ["fork-plan", runId, JSON.stringify(asked)],
    queryFn: () => postJson<ForkPlan>(`/api/runs/${encodeURIComponent(runId)}/forks/plan`, asked),
    enabled: asked !== null,
    retry: false,
    staleTime: 10_000,
  });
}

function PlanList({ plan }: { plan: ForkPlan }) {
  if (plan.tools.length === 0) return <p className="muted">No tool can run live after this step.</p>;
  return (
    <ul className="fork-plan" aria-label="Tools that may run live">
      {plan.tools.map((tool) => (
        <li key={tool.name} data-effects={tool.effects}>
          <strong className="mono">{tool.name}</strong> <span className={`effects effects-${tool.effects}`}>{tool.effects}</span>
          {tool.pending ? <span className="muted"> · called at this step</span> : null}
          {tool.halts ? <span className="muted"> · the fork halts before it runs</span> : null}
        </li>
      ))}
    </ul>
  );
}

export function ForkButton({ runId, at, record, models, recordedModel }: ForkButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = useId();
  const router = useRouter();
  const modes = modesFor(record);
  const [mode, setMode] = useState<EditMode>(modes[0] ?? "none");
  const [text, setText] = useState("");
  const [model, setModel] = useState(recordedModel && models.includes(recordedModel) ? recordedModel : (models[0] ?? ""));
  const [allowEffects, setAllowEffects] = useState(false);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const { follow, job, status, failure: jobFailure } = useJob<ForkJobOutput>("fork-job");

  const { edit, invalid } = editFrom(mode, text);
  const body = invalid ? null : { at, ...(edit ? { edit } : {}), ...(model ? { model } : {}), allowEffects };
  const plan = usePlan(runId, shown ? body : null);

  useEffect(() => {
    const result = job?.result;
    if (job?.status === "done" && result) router.push(diffHref({ a: runId, b: result.newRunId, at: result.landAt }));
  }, [job, router, runId]);

  const choose = (next: EditMode) => {
    setMode(next);
    setText(initialText(record, next));
  };

  const open = () => {
    setFailure(null);
    follow(null);
    choose(modes[0] ?? "none");
    setAllowEffects(false);
    setShown(true);
    dialog.current?.showModal();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!body) return;
    setFailure(null);
    setSending(true);
    try {
      const answer = await postJson<{ jobId: string; newRunId: string }>(`/api/runs/${encodeURIComponent(runId)}/forks`, body);
      follow(answer.jobId);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  };

  const busy = sending || status === "queued" || status === "running" || status === "done";
  const progress =
    status === "queued" ? "Queued…" : status === "running" ? "Forking…" : status === "done" ? `Done: opening the diff with ${job?.newRunId ?? ""}…` : sending ? "Starting…" : "";
  const problem = failure ?? jobFailure ?? invalid ?? (plan.error ? plan.error.message : null);
  const editor = editorKind(mode);

  return (
    <>
      <button
        type="button"
        onClick={open}
        disabled={modes.length === 0}
        title={modes.length === 0 ? "Pick a step after run:start (and before run:complete) to fork at" : undefined}
      >
        Fork from here
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={`${ids}-title`} onClose={() => setShown(false)}>
        <form onSubmit={(event) => void submit(event)}>
          <h2 id={`${ids}-title`}>
            Fork {runId} at step {at}
          </h2>
          <p className="muted">
            A new run: records before step {at} are copied, the one at it ({record?.kind} <span className="mono">{record?.name}</span>) is edited, and the agent runs on live from
            there.
          </p>
          <fieldset disabled={busy}>
            <legend>Edit</legend>
            <label className="choice">
              What to change{" "}
              <select aria-label="What to change" value={mode} onChange={(event) => choose(event.target.value as EditMode)}>
                {modes.map((option) => (
                  <option key={option} value={option}>
                    {MODE_LABELS[option]}
                  </option>
                ))}
              </select>
            </label>
            {editor ? (
              <textarea
                aria-label={editor === "json" ? "Edited value (JSON)" : "Edited text"}
                className="mono fork-editor"
                rows={8}
                value={text}
                onChange={(event) => setText(event.target.value)}
                aria-invalid={invalid ? true : undefined}
              />
            ) : null}
          </fieldset>
          <fieldset disabled={busy}>
            <legend>Model after the step</legend>
            <ModelSelect models={models} recordedModel={recordedModel} value={model} onChange={setModel} />
          </fieldset>
          <fieldset disabled={busy}>
            <legend>Tools that may run live</legend>
            {plan.data ? <PlanList plan={plan.data} /> : <p className="muted">{plan.isFetching ? "Checking…" : ""}</p>}
            <label className="choice">
              <input type="checkbox" checked={allowEffects} onChange={(event) => setAllowEffects(event.target.checked)} />
              Allow external effects
            </label>
            <p className="muted">Unchecked, the fork halts before a tool with external effects (a charge, an email) and waits on the recovery board.</p>
          </fieldset>
          <p role="status" className="notice">
            {progress}
          </p>
          {problem ? (
            <p role="alert" className="error-box">
              {problem}
            </p>
          ) : null}
          <div className="dialog-buttons">
            <button type="submit" disabled={busy || body === null || plan.isError}>
              Start fork
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
