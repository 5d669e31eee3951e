"use client";

/**
 * The run as it was at the cursor (lib/inspect/timeline.ts summaryAt and conversationItems):
 * status and pause, usage and counts so far, the conversation so far and the tool results so
 * far. Both lists are virtualised and read their records page by page, so a step deep in a
 * 100,000-record run costs what is on screen.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useRef, type ReactNode } from "react";
import { excerpt } from "@/lib/inspect/outline";
import { redactValue } from "@/lib/inspect/redact";
import { conversationItems, countThrough, toolResultOf, type StepSummary, type Timeline } from "@/lib/inspect/timeline";
import { formatCount } from "@/lib/inspect/view";
import { useSecretKeys } from "../payload-viewer";
import { CostSoFar } from "./run-cost";
import { useRecord } from "./use-run-data";

const TEXT = 160;

/** A one-line excerpt of a value, secrets hidden (an excerpt has no "Reveal"). */
function brief(value: unknown, isSecret: (key: string) => boolean): string {
  const text = typeof value === "string" ? value : (JSON.stringify(redactValue(value, isSecret)) ?? "null");
  return excerpt(text, TEXT);
}

function StepButton({ seq, onAt }: { seq: number; onAt: (at: number) => void }) {
  return (
    <button type="button" className="link mono" onClick={() => onAt(seq)} aria-label={`Go to step ${seq}`}>
      #{seq}
    </button>
  );
}

const ConversationRow = memo(function ConversationRow({
  runId,
  seq,
  lastSeq,
  latest,
  onAt,
}: {
  runId: string;
  seq: number;
  lastSeq: number;
  latest: boolean;
  onAt: (at: number) => void;
}) {
  const { record } = useRecord(runId, seq, lastSeq);
  const isSecret = useSecretKeys();
  const items = record ? conversationItems(record) : [];
  return (
    <div className={`conversation-item${latest ? " latest" : ""}`}>
      {record ? null : <span className="muted">Loading step {seq}…</span>}
      {items.map((item, index) => (
        <div key={index}>
          <span className="role">{item.role}</span> <StepButton seq={seq} onAt={onAt} />
          {item.role === "tool" ? (
            <div className={item.isError ? "status-failed" : undefined}>
              {item.toolName} {item.isError ? "failed" : "→"} <span className="mono">{brief(item.result, isSecret)}</span>
            </div>
          ) : (
            <div>{excerpt(item.text, TEXT) || (item.role === "assistant" ? "" : "—")}</div>
          )}
          {item.role === "assistant"
            ? item.toolCalls.map((call, k) => (
                <div key={k} className="mono">
                  → {call.toolName}({brief(call.args, isSecret)})
                </div>
              ))
            : null}
        </div>
      ))}
    </div>
  );
});

const ToolResultRow = memo(function ToolResultRow({ runId, seq, lastSeq, onAt }: { runId: string; seq: number; lastSeq: number; onAt: (at: number) => void }) {
  const { record } = useRecord(runId, seq, lastSeq);
  const isSecret = useSecretKeys();
  if (!record) return <div className="conversation-item muted">Loading step {seq}…</div>;
  const result = toolResultOf(record);
  return (
    <div className="conversation-item">
      <StepButton seq={seq} onAt={onAt} /> <strong className={result.isError ? "status-failed" : undefined}>{result.toolName}</strong>
      {result.isError ? " failed" : ""} <span className="mono">{brief(result.result, isSecret)}</span>
    </div>
  );
});

/** Rows have one fixed height (their text is cut; the detail panel shows a step whole), so a list of
 * thousands of steps costs the same per step as a short one: nothing is measured. */
const ROW_HEIGHT = 72;

/**
 * A list of steps (the first `count` of `steps`), virtualised, newest first: a step adds its row at
 * the top, where the list already is, so stepping never scrolls it (a scroll write forces a layout).
 */
function StepList({ steps, count, label, row }: { steps: readonly number[]; count: number; label: string; row: (seq: number, index: number) => ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  // Rows keyed by their step, so a step mounts one new row and the others only move.
  const key = useCallback((index: number) => steps[count - 1 - index] ?? -index - 1, [steps, count]);
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 4, getItemKey: key });
  if (count === 0) return <p className="muted">None yet.</p>;
  return (
    <div ref={scroller} className="scroll-list" role="list" aria-label={label}>
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            role="listitem"
            className="step-row"
            style={{ position: "absolute", top: 0, left: 0, width: "100%", height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
          >
            {row(steps[count - 1 - item.index]!, count - 1 - item.index)}
          </div>
        ))}
      </div>
    </div>
  );
}

export function StatePanel({ runId, timeline, summary, lastSeq, onAt }: { runId: string; timeline: Timeline; summary: StepSummary; lastSeq: number; onAt: (at: number) => void }) {
  const conversation = countThrough(timeline.conversationSteps, summary.at);
  const results = countThrough(timeline.toolResultSteps, summary.at);
  return (
    <section className="panel state" aria-labelledby="state-heading" data-testid="state">
      <h2 id="state-heading">State at step {summary.at}</h2>
      <ul className="figures">
        <li>
          Status: <span className={`status status-${summary.status}`}>{summary.status}</span>
        </li>
        <li>
          Model turns: <strong>{formatCount(summary.modelTurns)}</strong>
        </li>
        <li>
          Tool calls: <strong>{formatCount(summary.toolCalls)}</strong>
          {summary.failedToolCalls > 0 ? ` (${formatCount(summary.failedToolCalls)} failed)` : ""}
        </li>
        <li>
          Tokens: <strong>{formatCount(summary.usage.inputTokens)}</strong> in, <strong>{formatCount(summary.usage.outputTokens)}</strong> out
        </li>
        <CostSoFar runId={runId} lastSeq={lastSeq} usage={summary.usage} />
      </ul>
      {summary.pause ? (
        <p className="status-paused">
          Paused ({summary.pause.reason}): {summary.pause.message}
        </p>
      ) : null}
      <h3>Conversation so far ({formatCount(conversation)}, newest first)</h3>
      <StepList
        steps={timeline.conversationSteps}
        count={conversation}
        label="Conversation so far"
        row={(seq, index) => <ConversationRow runId={runId} seq={seq} lastSeq={lastSeq} latest={index === conversation - 1} onAt={onAt} />}
      />
      <h3>Tool results so far ({formatCount(results)}, newest first)</h3>
      <StepList
        steps={timeline.toolResultSteps}
        count={results}
        label="Tool results so far"
        row={(seq) => <ToolResultRow runId={runId} seq={seq} lastSeq={lastSeq} onAt={onAt} />}
      />
    </section>
  );
}
