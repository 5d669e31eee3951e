/**
 * Fork edits: what may replace the record at a fork's step, checked against that record's kind.
 * Pure. An edit fits exactly one kind of record; the edited record keeps the source's payload
 * under `edited.original`, so the fork says what it changed and from what.
 */
import type { ApprovalPayload, ModelPayload, ToolResultPayload, ValuePayload } from "../agent/payloads";
import { RUN_COMPLETE, userMessageName } from "../journal/names";
import type { JournalRecord, RecordKind } from "../journal/types";
import type { RedactOptions } from "../inspect/redact";
import { restoreSecrets } from "./secrets";

/** What replaces (or, for `user_message`, comes before) the record at `at`. */
export type ForkEdit =
  | { kind: "result"; result: unknown }
  | { kind: "error"; error: string }
  | { kind: "text"; text: string }
  | { kind: "args"; args: unknown; call?: number }
  | { kind: "value"; value: unknown }
  | { kind: "approval"; approved: boolean; reason?: string }
  | { kind: "user_message"; text: string };

export type ForkEditKind = ForkEdit["kind"];

/** The record kind each edit fits. */
export const EDIT_TARGETS: Record<ForkEditKind, RecordKind> = {
  result: "tool_result",
  error: "tool_result",
  text: "model",
  args: "model",
  value: "value",
  approval: "approval",
  user_message: "model",
};

export interface UserMessagePayload {
  type: "user_message";
  text: string;
  edited: { inserted: true };
}

export interface EditedRecord {
  name: string;
  kind: RecordKind;
  payload: unknown;
}

/**
 * The edit's record at `at`, or a reason it does not fit `record` (the source's record at `at`).
 * A redaction marker left in the edit (the editor starts from the redacted record) keeps the
 * recorded secret there (lib/fork/secrets.ts); `redaction` must be the one the record was shown with.
 */
export function applyEdit(record: JournalRecord, asked: ForkEdit, redaction: RedactOptions = {}): EditedRecord | { refused: string } {
  const target = EDIT_TARGETS[asked.kind];
  if (record.kind !== target) return { refused: `a "${asked.kind}" edit fits a ${target} record, and step ${record.seq} is a ${record.kind} record ("${record.name}")` };
  const edit = withSecrets(record, asked, redaction);
  if ("refused" in edit) return edit;
  const original = record.payload;
  const edited = { original };
  switch (edit.kind) {
    case "result":
    case "error": {
      const payload = original as ToolResultPayload;
      const result = edit.kind === "result" ? edit.result : { error: edit.error };
      return { name: record.name, kind: "tool_result", payload: { ...payload, result: result ?? null, isError: edit.kind === "error", threw: edit.kind === "error", edited } };
    }
    case "text":
    case "args":
      return editModel(record, edit, edited);
    case "value":
      if (record.name === RUN_COMPLETE) return { refused: "run:complete is the run's end, not a step to edit" };
      return { name: record.name, kind: "value", payload: { ...(original as ValuePayload), value: edit.value ?? null, edited } };
    case "approval": {
      const payload: ApprovalPayload = { ...(original as ApprovalPayload), approved: edit.approved, ...(edit.reason ? { reason: edit.reason } : {}) };
      return { name: record.name, kind: "approval", payload: { ...payload, edited } };
    }
    case "user_message": {
      const turn = /^turn:(\d+)$/.exec(record.name)?.[1];
      if (turn === undefined) return { refused: `a user message goes before a model turn, and step ${record.seq} is "${record.name}"` };
      const payload: UserMessagePayload = { type: "user_message", text: edit.text, edited: { inserted: true } };
      return { name: userMessageName(Number(turn)), kind: "signal", payload };
    }
  }
}

function editModel(record: JournalRecord, edit: Extract<ForkEdit, { kind: "text" | "args" }>, edited: { original: unknown }): EditedRecord | { refused: string } {
  const payload = record.payload as ModelPayload;
  const content = Array.isArray(payload?.message?.content) ? payload.message.content : [];
  if (edit.kind === "text") {
    const kept = content.filter((part) => (part as { type?: string }).type !== "text");
    const message = { ...payload.message, content: [{ type: "text" as const, text: edit.text }, ...kept] };
    return { name: record.name, kind: "model", payload: { ...payload, message, edited } };
  }
  const calls = content.flatMap((part, index) => ((part as { type?: string }).type === "tool-call" ? [index] : []));
  const which = edit.call ?? 0;
  const position = calls[which];
  if (position === undefined) return { refused: `model turn "${record.name}" has ${calls.length} tool call(s); there is no call ${which} to give arguments to` };
  const parts = content.map((part, index) => (index === position ? { ...part, args: edit.args } : part));
  return { name: record.name, kind: "model", payload: { ...payload, message: { ...payload.message, content: parts }, edited } };
}

/** What an edit's value replaces in the record, where a marker left in it takes its secret from. */
function recordedCounterpart(record: JournalRecord, edit: ForkEdit): unknown {
  const payload = (record.payload ?? {}) as Record<string, unknown>;
  const content = Array.isArray((payload.message as { content?: unknown } | undefined)?.content)
    ? ((payload.message as { content: unknown[] }).content as Array<Record<string, unknown>>)
    : [];
  switch (edit.kind) {
    case "result":
      return payload.result;
    case "value":
      return payload.value;
    case "text":
      // The editor starts from the turn's text parts joined (components/run/fork-edit.ts).
      return content.flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : [])).join("");
    case "args":
      return content.filter((part) => part.type === "tool-call")[edit.call ?? 0]?.args;
    case "error":
    case "approval":
    case "user_message":
      // Nothing recorded stands where these go: a marker in them has no secret to keep.
      return undefined;
  }
}

function withSecrets(record: JournalRecord, edit: ForkEdit, redaction: RedactOptions): ForkEdit | { refused: string } {
  const field = ({ result: "result", value: "value", text: "text", args: "args", error: "error", user_message: "text", approval: "reason" } as const)[edit.kind];
  const asked = (edit as Record<string, unknown>)[field];
  if (asked === undefined) return edit;
  const restored = restoreSecrets(asked, recordedCounterpart(record, edit), redaction);
  return "refused" in restored ? restored : ({ ...edit, [field]: restored.value } as ForkEdit);
}
