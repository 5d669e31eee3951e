import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { previewMetadata } from "@/app/_server/link-preview";
import { pageId, type IdPageProps } from "@/app/_server/page-params";
import { pageStore } from "@/app/_server/page-store";
import { redacted } from "@/app/_server/redaction";
import { DatabaseProblemView } from "@/components/database-problem";
import { SessionInspector } from "@/components/session-inspector";
import { sessionPreview } from "@/lib/inspect/link-preview";
import { parseSecretKeys } from "@/lib/inspect/redact";
import { isBacktrackError } from "@/lib/journal/errors";
import { SessionService, sessionView, type SessionView } from "@/lib/sessions";

/** A shared session link unfurls with its app, user, event count and state keys (names only). */
export async function generateMetadata({ params }: IdPageProps): Promise<Metadata> {
  const id = pageId((await params).id);
  const session = await pageStore()
    .then(({ store }) => (store ? new SessionService(store.client).get(id, { onMismatch: "report" }) : undefined))
    .catch(() => undefined);
  return previewMetadata(
    session ? sessionPreview(session) : { title: `${id} · Sessions · Backtrack`, description: `The session ${id} in Backtrack's inspector.` },
    `${id} · Sessions · Backtrack`,
  );
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
  return <SessionInspector key={view.id} session={redacted(session)} secretKeys={parseSecretKeys(process.env.BACKTRACK_REDACT_KEYS)} />;
}
