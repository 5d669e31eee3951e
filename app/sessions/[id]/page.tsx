import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { pageId, type IdPageProps } from "@/app/_server/page-params";
import { pageStore } from "@/app/_server/page-store";
import { DatabaseProblemView } from "@/components/database-problem";
import { SessionInspector } from "@/components/session-inspector";
import { parseSecretKeys } from "@/lib/inspect/redact";
import { isBacktrackError } from "@/lib/journal/errors";
import { SessionService, sessionView, type SessionView } from "@/lib/sessions";

export async function generateMetadata({ params }: IdPageProps): Promise<Metadata> {
  const { id } = await params;
  return { title: `${pageId(id)} · Sessions · Backtrack` };
}

/** The inspector reads `?at=N` from the URL itself (nuqs) and clamps it to the session's events. */
export default async function SessionPage({ params }: IdPageProps) {
  await connection();
  const id = pageId((await params).id);
  const { store, problem } = await pageStore();
  if (problem) return <DatabaseProblemView problem={problem} />;
  let view: SessionView;
  try {
    view = await sessionView(new SessionService(store.client), id);
  } catch (error) {
    // An unknown id, or one no session could have (too long, NUL): either way there is no such session.
    if (isBacktrackError(error) && (error.code === "not_found" || error.code === "bad_input")) notFound();
    throw error;
  }
  const { changes: _changes, rebuild: _rebuild, at: _at, ...session } = view;
  return <SessionInspector key={view.id} session={session} secretKeys={parseSecretKeys(process.env.BACKTRACK_REDACT_KEYS)} />;
}
