import type { Metadata } from "next";
import { connection } from "next/server";
import { previewMetadata } from "@/app/_server/link-preview";
import { pageStore } from "@/app/_server/page-store";
import { redacted } from "@/app/_server/redaction";
import { DatabaseProblemView } from "@/components/database-problem";
import { HelpLine } from "@/components/help-popover";
import { SessionsEmpty } from "@/components/session-empty";
import { SessionFilters } from "@/components/session-filters";
import { SessionTable } from "@/components/session-table";
import { loadSessionsParams } from "@/components/session-urls";
import { formatCount } from "@/lib/inspect/view";
import { isBacktrackError } from "@/lib/journal/errors";
import { SessionService } from "@/lib/sessions";

/** The list shows this many sessions, most recently updated first; the filters narrow it. */
const SHOWN = 200;

export const metadata: Metadata = previewMetadata({
  title: "Sessions · Backtrack",
  description: "ADK-style sessions: append-only events whose state is rebuilt from the deltas they carry.",
});

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
      <HelpLine
        className="muted"
        label="About sessions"
        help={
          <>
            <p>ADK-style sessions (Google Agent Development Kit semantics): each is an append-only list of events, and its state is whatever replaying their state deltas gives.</p>
            <p>
              Keys without a prefix belong to the session; <code>app:</code> and <code>user:</code> keys are shared; <code>temp:</code> keys are never stored. Filter by exact app
              and user names.
            </p>
          </>
        }
      >
        Append-only event lists, their state rebuilt from the deltas they carry. Most recently updated first.
      </HelpLine>
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
