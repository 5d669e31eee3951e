"use client";

/**
 * "Run suite": a model (the recorded outputs or a registry model) and the memory option; it posts
 * a batch (a server job drives it) and opens the batch's page, which follows it live.
 */
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { postJson } from "../api";
import { batchHref } from "./suite-links";

export function RunSuiteForm({ suite, models }: { suite: string; models: string[] }) {
  const router = useRouter();
  const id = useId();
  const [model, setModel] = useState("recorded");
  const [strip, setStrip] = useState(false);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const start = async () => {
    setSending(true);
    setFailure(null);
    try {
      const started = await postJson<{ jobId: string; batchId: string }>(`/api/suites/${encodeURIComponent(suite)}/batches`, { model, stripMemory: strip });
      router.push(batchHref(suite, started.batchId));
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
      setSending(false);
    }
  };
  return (
    <div className="toolbar" role="group" aria-label={`Run suite ${suite}`}>
      <label htmlFor={`${id}-model`}>Model</label>
      <select id={`${id}-model`} value={model} onChange={(event) => setModel(event.target.value)}>
        <option value="recorded">recorded outputs</option>
        {models.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <label>
        <input type="checkbox" checked={strip} onChange={(event) => setStrip(event.target.checked)} /> strip memory
      </label>
      <button type="button" disabled={sending} onClick={() => void start()}>
        Run suite
      </button>
      {failure ? (
        <span role="alert" className="notice">
          {failure}
        </span>
      ) : null}
    </div>
  );
}
