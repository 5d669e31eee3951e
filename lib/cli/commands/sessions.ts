import type { Command } from "commander";
import { SessionService, sessionView, type SessionView } from "../../sessions/index";
import { CliError, common, EXIT_CHECK_FAILED, printJson, printLine, table, withStore, type CommonOptions } from "../context";

interface SessionsOptions extends CommonOptions {
  app?: string;
  user?: string;
  limit?: string;
}

interface SessionOptions extends CommonOptions {
  at?: string;
}

function count(text: string | undefined, flag: string, minimum: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < minimum) throw new CliError(`${flag} must be an integer of at least ${minimum}`);
  return value;
}

function brief(value: unknown, width = 60): string {
  const text = JSON.stringify(value) ?? "";
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** The text of an event's content: ADK parts' text joined, or the JSON. */
function contentText(content: unknown): string {
  const parts = (content as { parts?: Array<{ text?: unknown }> } | null)?.parts;
  if (Array.isArray(parts)) return parts.map((part) => (typeof part?.text === "string" ? part.text : brief(part, 30))).join(" ");
  return content === null ? "" : brief(content);
}

function printView(view: SessionView): void {
  printLine(`${view.id}  app ${view.app}  user ${view.user}  ${view.revision} events  rebuild: ${view.rebuild.ok ? "ok" : "MISMATCH"}`);
  if (!view.rebuild.ok) printLine(`  ${view.rebuild.summary}`);
  printLine();
  printLine(`state after ${view.at} of ${view.revision} events:`);
  const keys = Object.keys(view.state).sort();
  if (keys.length === 0) printLine("  (empty)");
  else printLine(table(keys.map((key) => [`  ${key}`, brief(view.state[key])])));
  if (view.changes.length > 0) {
    printLine(`changed by event ${view.at} (${view.events[view.at - 1]?.id}):`);
    for (const change of view.changes) {
      const note = change.persisted ? "" : "  (temp: not persisted)";
      const after = change.kind === "delete" ? "deleted" : change.kind === "unrecorded" ? "set on the live session" : brief(change.after);
      printLine(`  ${change.key}: ${change.before === undefined ? "absent" : brief(change.before)} → ${after}${note}`);
    }
  }
  if (view.events.length === 0) return;
  printLine();
  const rows = view.events.map((event) => {
    const delta = { ...event.actions.stateDelta };
    const temp = event.actions.tempKeys?.length ? ` + ${event.actions.tempKeys.join(", ")} (not persisted)` : "";
    return [
      event.index < view.at ? String(event.index + 1) : `(${event.index + 1})`,
      event.id,
      event.author,
      `${brief(delta, 40)}${temp}`,
      contentText(event.content).slice(0, 50),
    ];
  });
  printLine(table([["#", "EVENT", "AUTHOR", "STATE DELTA", "CONTENT"], ...rows]));
  if (view.at < view.revision) printLine(`\n(events in parentheses come after event ${view.at})`);
}

export function registerSessions(program: Command): void {
  common(
    program
      .command("sessions")
      .description("list sessions (ADK-style event logs), most recently updated first")
      .option("--app <app>", "only sessions of this app")
      .option("--user <user>", "only sessions of this user")
      .option("--limit <n>", "at most this many (default 100, at most 1000)"),
  ).action(async (options: SessionsOptions) => {
    const limit = count(options.limit, "--limit", 1);
    await withStore(options, async (store) => {
      const sessions = await new SessionService(store.client).listSessions({ app: options.app, user: options.user, limit });
      if (options.json) return printJson({ sessions });
      if (sessions.length === 0) return printLine("no sessions (write the demo's with `backtrack demo`)");
      printLine(
        table([
          ["SESSION", "APP", "USER", "EVENTS", "UPDATED"],
          ...sessions.map((session) => [session.id, session.app, session.user, String(session.revision), session.updatedAt]),
        ]),
      );
    });
  });

  common(
    program
      .command("session <id>")
      .description("a session's events and its state rebuilt from their state deltas (as of event N with --at); " + "exits 1 when the stored state disagrees with the replay")
      .option("--at <n>", "show the state after the first N events (default: all)"),
  ).action(async (id: string, options: SessionOptions) => {
    const at = count(options.at, "--at", 0);
    await withStore(options, async (store) => {
      const view = await sessionView(new SessionService(store.client), id, at);
      if (options.json) printJson(view);
      else printView(view);
      if (!view.rebuild.ok) {
        process.stderr.write(`backtrack: session "${id}": the stored state does not match the replay of its events: ${view.rebuild.summary}\n`);
        process.exitCode = EXIT_CHECK_FAILED;
      }
    });
  });
}
