"use client";

/**
 * One component per record kind, for the record at the cursor: a model turn's text and tool
 * calls; a tool call's arguments, result or error; an approval's decision and who made it; a
 * step's value; a signal; and a record of a kind this version does not know, shown as such with
 * its raw payload.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import type { AssistantMessage } from "@/lib/agent/messages";
import type { ApprovalPayload, AttemptPayload, HeaderPayload, ModelPayload, SignalPayload, ToolResultPayload, ValuePayload } from "@/lib/agent/payloads";
import { isRedacted } from "@/lib/inspect/redact";
import { conversationItems } from "@/lib/inspect/timeline";
import { formatCount, formatDuration, formatTime } from "@/lib/inspect/view";
import { RUN_COMPLETE } from "@/lib/journal/names";
import { isKnownKind, type JournalRecord, type RecordKind } from "@/lib/journal/types";
import { runHref } from "../links";
import { PayloadViewer } from "../payload-viewer";

function payloadOf<T>(record: JournalRecord): Partial<T> {
  const payload = record.payload;
  return (typeof payload === "object" && payload !== null && !Array.isArray(payload) ? payload : {}) as Partial<T>;
}

function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl>
      {rows.map(([term, value]) => (
        <div key={term} style={{ display: "contents" }}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ToolCalls({ message }: { message: AssistantMessage | undefined }) {
  const record = { runId: "", seq: 0, name: "", kind: "model", payload: { message }, createdAt: "" };
  const item = conversationItems(record)[0];
  if (!item || item.role !== "assistant") return null;
  // Where each call's arguments sit in the payload, for "Reveal": the k-th tool-call part of the content.
  const parts = Array.isArray(message?.content) ? message.content : [];
  const places = parts.flatMap((part, index) => (typeof part === "object" && part !== null && (part as { type?: unknown }).type === "tool-call" ? [index] : []));
  return (
    <>
      {item.text ? (
        <>
          <h3>Text</h3>
          <div className="message-text">{item.text}</div>
        </>
      ) : null}
      {item.toolCalls.length > 0 ? <h3>Tool calls ({item.toolCalls.length})</h3> : null}
      {item.toolCalls.map((call, index) => (
        <div className="tool-call" key={`${call.toolCallId}-${index}`}>
          <strong>{call.toolName}</strong> <span className="muted mono">{call.toolCallId}</span>
          <PayloadViewer value={call.args} label={`Arguments of ${call.toolName}`} pointer={places[index] === undefined ? undefined : `/message/content/${places[index]}/args`} />
        </div>
      ))}
    </>
  );
}

/** The run's input: agent, model, tools, system text and input. */
function HeaderRecord({ record }: { record: JournalRecord }) {
  const header = payloadOf<HeaderPayload>(record);
  return (
    <>
      <h2>Run input</h2>
      <Facts
        rows={[
          ["Agent", String(header.agent ?? "—")],
          [
            "Model",
            <span className="mono" key="model">
              {String(header.model ?? "—")}
            </span>,
          ],
          ["Tools", Array.isArray(header.tools) ? header.tools.join(", ") || "none" : "—"],
          ...(typeof header.parentRunId === "string"
            ? [
                [
                  "Parent run",
                  <Link key="parent" href={runHref(header.parentRunId)}>
                    {header.parentRunId}
                  </Link>,
                ] as [string, ReactNode],
              ]
            : []),
          ...(typeof header.replayOf === "string"
            ? [
                [
                  "Replay of",
                  <Link key="replay" href={runHref(header.replayOf)}>
                    {header.replayOf}
                  </Link>,
                ] as [string, ReactNode],
              ]
            : []),
        ]}
      />
      {typeof header.system === "string" ? (
        <>
          <h3>System</h3>
          <div className="message-text">{header.system}</div>
        </>
      ) : null}
      <h3>Input</h3>
      {typeof header.input === "string" && !isRedacted(header.input) ? (
        <div className="message-text">{header.input}</div>
      ) : (
        <PayloadViewer value={header.input ?? null} label="Input" pointer="/input" />
      )}
    </>
  );
}

/** A model turn: its model, tokens, time, text and tool calls. */
function ModelRecord({ record }: { record: JournalRecord }) {
  const model = payloadOf<ModelPayload>(record);
  return (
    <>
      <h2>Model turn</h2>
      <Facts
        rows={[
          [
            "Model",
            <span className="mono" key="model">
              {String(model.model ?? "—")}
            </span>,
          ],
          ["Tokens", `${formatCount(model.usage?.inputTokens ?? 0)} in, ${formatCount(model.usage?.outputTokens ?? 0)} out`],
          ["Took", formatDuration(typeof model.durationMs === "number" ? model.durationMs : null)],
        ]}
      />
      <ToolCalls message={model.message} />
    </>
  );
}

/** A tool call written before the tool ran. */
function AttemptRecord({ record }: { record: JournalRecord }) {
  const attempt = payloadOf<AttemptPayload>(record);
  return (
    <>
      <h2>Tool call: {String(attempt.toolName ?? "?")}</h2>
      <p className="notice">Written before the tool ran: if no result follows, the outcome is unknown and a resume halts rather than run it twice.</p>
      <Facts
        rows={[
          [
            "Call id",
            <span className="mono" key="id">
              {String(attempt.toolCallId ?? "—")}
            </span>,
          ],
          [
            "Idempotency key",
            <span className="mono" key="key">
              {String(attempt.idempotencyKey ?? "—")}
            </span>,
          ],
        ]}
      />
      <h3>Arguments</h3>
      <PayloadViewer value={attempt.args ?? null} label="Arguments" pointer="/args" />
    </>
  );
}

/** A tool's result or error, and the sub-agent runs it started. */
function ToolResultRecord({ record }: { record: JournalRecord }) {
  const result = payloadOf<ToolResultPayload>(record);
  const failed = result.isError === true;
  const children = Array.isArray(result.childRunIds) ? result.childRunIds.filter((id): id is string => typeof id === "string") : [];
  return (
    <>
      <h2>
        Tool result: {String(result.toolName ?? "?")} <span className={`status status-${failed ? "failed" : "complete"}`}>{failed ? "error" : "ok"}</span>
      </h2>
      <Facts
        rows={[
          [
            "Call id",
            <span className="mono" key="id">
              {String(result.toolCallId ?? "—")}
            </span>,
          ],
          ["Took", formatDuration(typeof result.durationMs === "number" ? result.durationMs : null)],
        ]}
      />
      <h3>Arguments</h3>
      <PayloadViewer value={result.args ?? null} label="Arguments" pointer="/args" />
      <h3>{failed ? "Error" : "Result"}</h3>
      <PayloadViewer value={result.result ?? null} label={failed ? "Error" : "Result"} pointer="/result" />
      {children.length > 0 ? (
        <>
          <h3>Sub-agent runs</h3>
          <ul>
            {children.map((child) => (
              <li key={child}>
                <Link href={runHref(child)}>{child}</Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

/** A person's approval or denial of a tool call. */
function ApprovalRecord({ record }: { record: JournalRecord }) {
  const approval = payloadOf<ApprovalPayload>(record);
  return (
    <>
      <h2>
        {approval.approved === true ? "Approved ✓" : "Denied ✗"}: {String(approval.toolName ?? "?")}
      </h2>
      <Facts
        rows={[
          ["By", String(approval.by ?? "—")],
          ["At", formatTime(typeof approval.at === "string" ? approval.at : null)],
          ["Reason", String(approval.reason ?? "—")],
        ]}
      />
    </>
  );
}

/** A durable step's value (or the run's final one). */
function ValueRecord({ record }: { record: JournalRecord }) {
  const value = payloadOf<ValuePayload>(record);
  return (
    <>
      <h2>{record.name === RUN_COMPLETE ? "Run complete" : `Step: ${String(value.step ?? record.name)}`}</h2>
      <h3>Value</h3>
      <PayloadViewer value={value.value ?? null} label="Value" pointer="/value" />
    </>
  );
}

/** A signal: a sub-agent started, a question asked, a sleep, documents retrieved. */
function SignalRecord({ record }: { record: JournalRecord }) {
  const signal = payloadOf<SignalPayload>(record) as Record<string, unknown>;
  return (
    <>
      <h2>Signal: {String(signal.type ?? "?")}</h2>
      {signal.type === "subagent" && typeof signal.childRunId === "string" ? (
        <p>
          Started sub-agent run <Link href={runHref(signal.childRunId)}>{signal.childRunId}</Link> ({String(signal.agent ?? "?")}).
        </p>
      ) : null}
      {signal.type === "retrieval" ? <RetrievedDocuments signal={signal} /> : null}
      <PayloadViewer value={signal} label="Signal" pointer="" />
    </>
  );
}

/** A retrieval's query and documents, read at a glance: what the agent was given to answer from. */
function RetrievedDocuments({ signal }: { signal: Record<string, unknown> }) {
  const documents = Array.isArray(signal.documents)
    ? signal.documents.filter((document): document is Record<string, unknown> => typeof document === "object" && document !== null)
    : [];
  return (
    <>
      {typeof signal.query === "string" ? <Facts rows={[["Query", signal.query]]} /> : null}
      <h3>Documents ({documents.length})</h3>
      <ol className="retrieved-documents">
        {documents.map((document, index) => (
          <li key={index}>
            <span className="mono">{typeof document.id === "string" ? document.id : `#${index}`}</span>
            {typeof document.score === "number" ? <span className="muted"> score {document.score}</span> : null}
            {typeof document.content === "string" ? <div className="message-text">{document.content}</div> : null}
          </li>
        ))}
      </ol>
    </>
  );
}

/** A record of a kind this version does not know, shown as stored. */
function UnknownRecord({ record }: { record: JournalRecord }) {
  return (
    <div className="unknown-kind">
      <h2>Record of unknown kind “{record.kind}”</h2>
      <p className="notice">This version of Backtrack does not know this kind; the record is kept and shown as stored.</p>
      <PayloadViewer value={record.payload} label="Payload" pointer="" />
    </div>
  );
}

/** One component per record kind; a kind this version does not know is shown as such. */
const BY_KIND: Record<RecordKind, (props: { record: JournalRecord }) => ReactNode> = {
  header: HeaderRecord,
  model: ModelRecord,
  attempt: AttemptRecord,
  tool_result: ToolResultRecord,
  approval: ApprovalRecord,
  value: ValueRecord,
  signal: SignalRecord,
};

export function RecordBody({ record }: { record: JournalRecord }) {
  const Kind = isKnownKind(record.kind) ? BY_KIND[record.kind] : UnknownRecord;
  return <Kind record={record} />;
}
