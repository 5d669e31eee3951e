"use client";

/**
 * The record at the cursor: where it is (step, kind, name, time), its body as its kind shows it
 * (record-kinds.tsx), and its raw payload on demand.
 */
import { useState } from "react";
import type { OutlineEntry } from "@/lib/inspect/outline";
import { formatTime } from "@/lib/inspect/view";
import { isKnownKind, type JournalRecord } from "@/lib/journal/types";
import { PayloadViewer, recordReveal, RevealProvider } from "../payload-viewer";
import { RecordBody } from "./record-kinds";
import { StepCost } from "./run-cost";

export function RecordDetail({
  record,
  entry,
  at,
  loading,
  error,
  lastSeq,
}: {
  lastSeq: number;
  record: JournalRecord | undefined;
  entry: OutlineEntry | undefined;
  at: number;
  loading: boolean;
  error: Error | null;
}) {
  return (
    <section className="panel detail" aria-labelledby="detail-heading" data-testid="detail" data-seq={at} data-loaded={record ? "true" : "false"}>
      <h2 id="detail-heading" className="visually-hidden">
        Record at step {at}
      </h2>
      <p className="muted mono">
        step {at} · {record?.kind ?? entry?.kind ?? "…"} · {record?.name ?? entry?.name ?? ""}
        {record ? ` · ${formatTime(record.createdAt)}` : ""}
      </p>
      {record ? (
        <RevealProvider source={recordReveal(record.runId, record.seq)}>
          <StepCost record={record} lastSeq={lastSeq} />
          <RecordBody record={record} />
          {isKnownKind(record.kind) ? <RawPayload key={record.seq} payload={record.payload} /> : null}
        </RevealProvider>
      ) : error ? (
        <p className="error-box">The record could not be loaded: {error.message}</p>
      ) : (
        <p className="muted">{loading ? "Loading the record…" : (entry?.title ?? "No record at this step.")}</p>
      )}
    </section>
  );
}

/** The stored payload, rendered only once opened (payloads can be large). */
function RawPayload({ payload }: { payload: unknown }) {
  const [open, setOpen] = useState(false);
  return (
    <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Raw payload</summary>
      {open ? <PayloadViewer value={payload} label="Raw payload" openDepth={1} pointer="" /> : null}
    </details>
  );
}
