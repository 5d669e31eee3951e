"use client";

/**
 * The run page's "Pin as test": pins the run into a suite (POST /api/suites/{name}/pins), with a
 * note. `backtrack test --suite NAME` and the /suites page's "Run suite" then replay it.
 */
import Link from "next/link";
import { useId, useState } from "react";
import { postJson } from "../api";

export function PinButton({ runId }: { runId: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [suite, setSuite] = useState("default");
  const [note, setNote] = useState("");
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<{ suite: string; created: boolean } | { error: string } | null>(null);
  const pin = async () => {
    setSending(true);
    try {
      const answer = await postJson<{ created: boolean; pin: { suite: string } }>(`/api/suites/${encodeURIComponent(suite)}/pins`, { runId, ...(note ? { note } : {}) });
      setOutcome({ suite: answer.pin.suite, created: answer.created });
      setOpen(false);
    } catch (error) {
      setOutcome({ error: error instanceof Error ? error.message : String(error) });
    } finally {
      setSending(false);
    }
  };
  return (
    <>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        Pin as test
      </button>
      {open ? (
        <span className="toolbar" role="group" aria-label="Pin as test">
          <label htmlFor={`${id}-suite`}>Suite</label>
          <input id={`${id}-suite`} type="text" value={suite} onChange={(event) => setSuite(event.target.value)} style={{ minWidth: 100 }} />
          <label htmlFor={`${id}-note`}>Note</label>
          <input id={`${id}-note`} type="text" value={note} onChange={(event) => setNote(event.target.value)} style={{ minWidth: 140 }} />
          <button type="button" disabled={sending || suite === ""} onClick={() => void pin()}>
            Pin
          </button>
        </span>
      ) : null}
      {outcome && "error" in outcome ? (
        <span role="alert" className="notice">
          {outcome.error}
        </span>
      ) : outcome ? (
        <span role="status" className="notice">
          {outcome.created ? "Pinned" : "Already pinned"} in suite <Link href="/suites">{outcome.suite}</Link>
        </span>
      ) : null}
    </>
  );
}
