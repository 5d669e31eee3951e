/**
 * The recovery board's projection: every unfinished run with why it waits, what would unblock
 * it, and who holds its lease. `waitingFor` is pure (unit-tested); `recoveryBoard` reads a store
 * in two queries whatever the number of runs: the unfinished runs (Lister) and their leases.
 */
import { DRIVEN_ORIGINS, type PauseState, type RunOrigin, type RunStatus } from "../journal/types";
import type { Journal, Lister } from "../journal/ports";
import { unfinished } from "./recover";

type WaitKind = "approval" | "interrupt" | "sleep" | "halt" | "fork_effect" | "running" | "failed";

interface Waiting {
  kind: WaitKind;
  /** One line for people: "pending approval: refund {"amount":900}", "sleeping until …". */
  text: string;
  /** What a person can do here: approve/deny, answer, resolve a halt, allow (or not) a fork's external tool, or nothing but recovery. */
  action: "decide" | "answer" | "resolve" | "effect" | null;
}

function brief(value: unknown, width = 120): string {
  const text = JSON.stringify(value) ?? "";
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** Why a run is unfinished, from its status and pause. */
export function waitingFor(status: RunStatus, pause: PauseState | null, error: string | null = null): Waiting {
  if (pause?.reason === "approval") return { kind: "approval", text: `pending approval: ${pause.toolName ?? "a tool"} ${brief(pause.args ?? {})}`, action: "decide" };
  if (pause?.reason === "interrupt") return { kind: "interrupt", text: `interrupted: ${pause.question ?? pause.message}`, action: "answer" };
  if (pause?.reason === "sleep") return { kind: "sleep", text: pause.wakeAt ? `sleeping until ${pause.wakeAt}` : "sleeping", action: null };
  if (pause?.reason === "halt" && pause.halt === "fork_effect") {
    return { kind: "fork_effect", text: `fork halted before ${pause.toolName ?? "a tool"} ${brief(pause.args ?? {})}: it has external effects and has not run`, action: "effect" };
  }
  if (pause?.reason === "halt") return { kind: "halt", text: `halted on an unknown outcome: ${pause.message}`, action: "resolve" };
  if (status === "failed") return { kind: "failed", text: `failed: ${error ?? "no error recorded"}`, action: null };
  return { kind: "running", text: "running, or interrupted mid-drive (recovery re-drives it)", action: null };
}

export interface BoardEntry {
  runId: string;
  parentRunId: string | null;
  agent: string | null;
  /** Imported runs are shown apart: recovery leaves them alone unless asked. */
  origin: RunOrigin;
  status: RunStatus;
  pause: PauseState | null;
  waiting: Waiting;
  lease: { holder: string; expiresAt: string; expired: boolean } | null;
  updatedAt: string | null;
}

interface LeaseReader {
  leases(runIds: readonly string[]): Promise<Array<{ runId: string; holder: string; expiresAt: string; expired: boolean }>>;
}

export interface BoardOptions {
  /** List runs recovery does not drive by default (imported ones) too. Default false. */
  includeImported?: boolean;
}

/** What the board API and page show: the runs recovery drives, plus the others when asked, and how many others there are. */
export interface BoardView {
  runs: BoardEntry[];
  /** Unfinished runs recovery leaves alone (imported), not in `runs` unless asked. */
  hiddenImported: number;
}

/** Whether recovery drives a run of this origin by default. */
export function isDriven(origin: RunOrigin): boolean {
  return DRIVEN_ORIGINS.includes(origin);
}

/** Splits a board of every unfinished run into what is shown and how many imported runs are hidden. */
export function boardView(entries: readonly BoardEntry[], options: BoardOptions = {}): BoardView {
  const hidden = entries.filter((entry) => !isDriven(entry.origin));
  return { runs: options.includeImported ? [...entries] : entries.filter((entry) => isDriven(entry.origin)), hiddenImported: options.includeImported ? 0 : hidden.length };
}

/** Every unfinished run recovery drives (every one, imported too, with includeImported), roots and sub-agents, in run-id order. */
export async function recoveryBoard(store: Journal & Lister & LeaseReader, options: BoardOptions = {}): Promise<BoardEntry[]> {
  const runs = (await unfinished(store)).filter((run) => options.includeImported || isDriven(run.origin));
  const ids = runs.map((run) => run.runId);
  const leases = new Map((await store.leases(ids)).map((lease) => [lease.runId, lease]));
  return runs.map((run) => {
    const lease = leases.get(run.runId);
    return {
      runId: run.runId,
      parentRunId: run.parentRunId,
      agent: run.agent,
      origin: run.origin,
      status: run.status,
      pause: run.pause,
      waiting: waitingFor(run.status, run.pause, run.error),
      lease: lease ? { holder: lease.holder, expiresAt: lease.expiresAt, expired: lease.expired } : null,
      updatedAt: run.updatedAt,
    };
  });
}
