"use client";

/**
 * The selected row's detail: what each run decided at this point. A model point shows a word diff
 * of the two texts and, call by call, the tool calls with a structural diff of their arguments; a
 * tool point shows both statuses and a structural diff of the two outputs, with each output whole
 * below. Links open each run's inspector at the record behind the point.
 */
import Link from "next/link";
import type { ToolCallSignature } from "@/lib/inspect/decision-points";
import type { DiffEntry } from "@/lib/inspect/diff";
import { STATUS_WORDS, type DiffHead } from "@/lib/inspect/diff-view";
import { runHref } from "../links";
import { PayloadViewer, recordReveal, RevealProvider } from "../payload-viewer";
import { JsonDiff, WordDiff } from "./diff-parts";

export interface DiffDetailProps {
  head: DiffHead;
  at: number;
  entry: DiffEntry | undefined;
  loading: boolean;
  error: Error | null;
}

function RecordLink({ runId, seq, side }: { runId: string; seq: number | undefined; side: "A" | "B" }) {
  if (seq === undefined) return <span className="muted">{side}: no decision here</span>;
  if (seq < 0) return <span className="muted">{side}: the call has no result</span>;
  return (
    <Link href={runHref(runId, seq)}>
      {side}: record {seq} of {runId}
    </Link>
  );
}

function ToolCallsDiff({ a, b }: { a: readonly ToolCallSignature[] | undefined; b: readonly ToolCallSignature[] | undefined }) {
  const count = Math.max(a?.length ?? 0, b?.length ?? 0);
  if (count === 0) return <p className="muted">No tool calls on either side.</p>;
  return (
    <>
      {Array.from({ length: count }, (_, index) => {
        const left = a?.[index];
        const right = b?.[index];
        const name = left && right && left.toolName !== right.toolName ? `${left.toolName} → ${right.toolName}` : (left ?? right)!.toolName;
        return (
          <div className="tool-call" key={index}>
            <strong>{name}</strong>{" "}
            <span className="muted">
              call {index + 1}
              {!left ? ", only in B" : !right ? ", only in A" : left.argsHash === right.argsHash ? ", same arguments" : ", arguments differ"}
            </span>
            <JsonDiff a={left?.args} b={right?.args} label={`Arguments of call ${index + 1}: A → B`} />
          </div>
        );
      })}
    </>
  );
}

/** One side's output whole; a redacted value in it can be revealed from the tool result record behind it. */
function SideOutput({ runId, seq, value, label }: { runId: string; seq: number | undefined; value: unknown; label: string }) {
  const viewer = <PayloadViewer value={value} label={label} openDepth={1} pointer={seq !== undefined && seq >= 0 ? "/result" : undefined} />;
  return seq !== undefined && seq >= 0 ? <RevealProvider source={recordReveal(runId, seq)}>{viewer}</RevealProvider> : viewer;
}

function ToolPoint({ entry, head }: { entry: DiffEntry; head: DiffHead }) {
  const { detail } = entry;
  return (
    <>
      <dl>
        <dt>tool</dt>
        <dd className="mono">{detail.toolName ?? "—"}</dd>
        <dt>status</dt>
        <dd>
          A {detail.statusA ?? "—"} · B {detail.statusB ?? "—"}
        </dd>
        <dt>arguments</dt>
        <dd>{detail.argsHashA && detail.argsHashB ? (detail.argsHashA === detail.argsHashB ? "the same" : "differ (see the model step before)") : "—"}</dd>
      </dl>
      <h3>Output: A → B</h3>
      <JsonDiff a={detail.outputA} b={detail.outputB} label="Output: A → B" />
      <div className="diff-sides">
        <div>
          <h3>Output A</h3>
          {detail.kindA === "tool" ? <SideOutput runId={head.a} seq={detail.seqA} value={detail.outputA} label="Output A" /> : <p className="muted">—</p>}
        </div>
        <div>
          <h3>Output B</h3>
          {detail.kindB === "tool" ? <SideOutput runId={head.b} seq={detail.seqB} value={detail.outputB} label="Output B" /> : <p className="muted">—</p>}
        </div>
      </div>
    </>
  );
}

export function DiffDetail({ head, at, entry, loading, error }: DiffDetailProps) {
  const afterDivergence = head.divergentAt !== null && at > head.divergentAt;
  return (
    <section className="panel detail diff-detail" aria-labelledby="diff-detail-heading" data-testid="diff-detail" data-index={at} data-loaded={entry ? "true" : "false"}>
      <h2 id="diff-detail-heading">
        Row {at}
        {entry ? (
          <>
            {" "}
            · step {entry.step} · {entry.kind === "model" ? "model decision" : "tool call"} ·{" "}
            <span className={`diff-status status-word-${entry.status}`}>{STATUS_WORDS[entry.status]}</span>
          </>
        ) : null}
      </h2>
      {error ? <p className="error-box">Could not load this row: {error.message}</p> : null}
      {!entry ? <p className="muted">{loading ? "Loading…" : "No such row."}</p> : null}
      {entry ? (
        <>
          {at === head.divergentAt ? <p className="diff-callout">The first divergence: the runs decide identically up to here.</p> : null}
          {entry.realigned ? <p className="notice">Placed by realignment (longest common subsequence), not by position.</p> : null}
          {afterDivergence && !entry.realigned ? <p className="notice">After the first divergence: compared by position, which may be one place off.</p> : null}
          {entry.detail.note ? <p className="diff-callout">{entry.detail.note}</p> : null}
          <p className="diff-links">
            <RecordLink runId={head.a} seq={entry.detail.seqA} side="A" /> <RecordLink runId={head.b} seq={entry.detail.seqB} side="B" />
          </p>
          {entry.detail.kindA === "model" || entry.detail.kindB === "model" ? (
            <>
              <h3>Text: A → B</h3>
              <WordDiff a={entry.detail.textA} b={entry.detail.textB} label="Text: A → B" />
              <h3>Tool calls</h3>
              <ToolCallsDiff a={entry.detail.toolCallsA} b={entry.detail.toolCallsB} />
            </>
          ) : null}
          {entry.detail.kindA === "tool" || entry.detail.kindB === "tool" ? <ToolPoint entry={entry} head={head} /> : null}
        </>
      ) : null}
    </section>
  );
}
