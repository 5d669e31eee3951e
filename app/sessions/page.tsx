import type { Metadata } from "next";
import { connection } from "next/server";
import { pageStore } from "@/app/_server/page-store";
import { redacted } from "@/app/_server/redaction";
import { DatabaseProblemView } from "@/components/database-problem";
import { SessionsEmpty } from "@/components/session-empty";
import { SessionFilters } from "@/components/session-filters";
import { SessionTable } from "@/components/session-table";
import { loadSessionsParams } from "@/components/session-urls";
import { formatCount } from "@/lib/inspect/view";
import { isBacktrackError } from "@/lib/journal/errors";
import { SessionService } from "@/lib/sessions";

/** The list shows this many sessions, most recently updated first; the filters narrow it. */
const SHOWN = 200;

export const metadata: Metadata = { title: "Sessions · Backtrack" };

export default async function SessionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const filters = await loadSessionsParams(searchParams);
  const { store, problem } = await pageStore();
  if (problem) return <DatabaseProblemView problem={problem} />;
  let sessions;
  try {
    sessions = await new SessionService(store.client).listSessions({ app: filters.app ?? undefined, user: filters.user ?? undefined, limit: SHOWN });
  } catch (error) {
    if (!isBacktrackError(error) || error.code !== "bad_input") throw error;
    return (
      <>
        <h1>Sessions</h1>
        <SessionFilters />
        <p className="error-box">These filters cannot be used: {error.message}</p>
      </>
    );
  }
  const filtered = Boolean(filters.app || filters.user);
  return (
    <>
      <h1>Sessions</h1>
      <p className="muted">
        ADK-style sessions: an append-only list of events whose state is rebuilt from the state deltas they carry. Most recently updated first.
      </p>
      <SessionFilters />
      {sessions.length === 0 ? (
        filtered ? (
          <p className="muted">No sessions match these filters.</p>
        ) : (
          <SessionsEmpty database={{ kind: store.client.kind, target: store.client.target }} />
        )
      ) : (
        <>
          <SessionTable sessions={redacted(sessions)} filters={filters} />
          <p className="list-footer muted">
            {sessions.length === SHOWN
              ? `The ${formatCount(SHOWN)} most recently updated sessions; filter by app or user to see others.`
              : `${formatCount(sessions.length)} session${sessions.length === 1 ? "" : "s"}`}
          </p>
        </>
      )}
    </>
  );
}
