/**
 * The fork dialog's editor, pure: which edits fit the record at the step, the editor's first text
 * for each (the recorded value, so an edit starts from what happened), and the edit a text makes,
 * or why it is not valid yet (checked as the user types; the server checks again).
 */
import type { ForkEdit } from "@/lib/fork/edits";
import type { JournalRecord } from "@/lib/journal/types";

export type EditMode = "none" | "result" | "error" | "text" | "args" | "value" | "deny" | "approve" | "user_message";

export const MODE_LABELS: Record<EditMode, string> = {
  none: "Run it again live (no edit)",
  result: "Edit the tool result (JSON)",
  error: "Make the tool call fail (error text)",
  text: "Edit the model's text",
  args: "Edit the tool call's arguments (JSON)",
  value: "Edit the step's value (JSON)",
  deny: "Deny instead",
  approve: "Approve instead",
  user_message: "Insert a user message before it",
};

/** Whether the editor takes JSON, text, or nothing for a mode. */
export function editorKind(mode: EditMode): "json" | "text" | null {
  if (mode === "result" || mode === "args" || mode === "value") return "json";
  if (mode === "error" || mode === "text" || mode === "user_message") return "text";
  return null;
}

export function modesFor(record: Pick<JournalRecord, "kind" | "name"> | undefined): EditMode[] {
  switch (record?.kind) {
    case "tool_result":
      return ["result", "error"];
    case "model":
      return ["none", "text", "args", "user_message"];
    case "value":
      return record.name === "run:complete" ? [] : ["none", "value"];
    case "approval":
      return ["none", "deny", "approve"];
    case "header":
    case undefined:
      return [];
    default:
      return ["none"];
  }
}

function pretty(value: unknown): string {
  return JSON.stringify(value ?? null, null, 2);
}

/** The recorded value the editor starts from. */
export function initialText(record: JournalRecord | undefined, mode: EditMode): string {
  const payload = (record?.payload ?? {}) as Record<string, unknown>;
  switch (mode) {
    case "result":
      return pretty(payload.result);
    case "error":
      return "";
    case "text": {
      const content = (payload.message as { content?: Array<{ type?: string; text?: string }> } | undefined)?.content ?? [];
      return content
        .filter((part) => part.type === "text")
        .map((part) => part.text ?? "")
        .join("");
    }
    case "args": {
      const content = (payload.message as { content?: Array<{ type?: string; args?: unknown }> } | undefined)?.content ?? [];
      return pretty(content.find((part) => part.type === "tool-call")?.args ?? {});
    }
    case "value":
      return pretty(payload.value);
    case "none":
    case "deny":
    case "approve":
    case "user_message":
      return "";
  }
}

/** The edit the editor's text makes, or why it is not valid. */
export function editFrom(mode: EditMode, text: string): { edit?: ForkEdit; invalid?: string } {
  const kind = editorKind(mode);
  let value: unknown;
  if (kind === "json") {
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { invalid: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  if (kind === "text" && mode !== "text" && text.trim() === "") return { invalid: mode === "error" ? "Say what the error is." : "Write the message." };
  switch (mode) {
    case "none":
      return {};
    case "result":
      return { edit: { kind: "result", result: value } };
    case "error":
      return { edit: { kind: "error", error: text } };
    case "text":
      return { edit: { kind: "text", text } };
    case "args":
      return { edit: { kind: "args", args: value } };
    case "value":
      return { edit: { kind: "value", value } };
    case "deny":
      return { edit: { kind: "approval", approved: false, reason: "denied in a fork" } };
    case "approve":
      return { edit: { kind: "approval", approved: true } };
    case "user_message":
      return { edit: { kind: "user_message", text } };
  }
}
