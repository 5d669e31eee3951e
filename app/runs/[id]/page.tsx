import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { runTimeline } from "@/app/_server/outlines";
import { accessSettings } from "@/app/_server/access";
import { previewMetadata } from "@/app/_server/link-preview";
import { pageId, type IdPageProps } from "@/app/_server/page-params";
import { pageStore } from "@/app/_server/page-store";
import { redacted } from "@/app/_server/redaction";
import { replayModels } from "@/app/_server/registry";
import { DatabaseProblemView } from "@/components/database-problem";
import { RunInspector } from "@/components/run/run-inspector";
import { RECORD_PAGE } from "@/components/page-sizes";
import { loadRunParams } from "@/components/search-params";
import { runPreview } from "@/lib/inspect/link-preview";
import { parseSecretKeys } from "@/lib/inspect/redact";
import { clampStep, summaryAt } from "@/lib/inspect/timeline";

/** Runs up to this many records ship their outline with the page; larger ones fetch it after. */
const INLINE_OUTLINE = 2_000;

/** A shared run link unfurls with the run's status and counts (its summary row: one indexed read). */
export async function generateMetadata({ params }: IdPageProps): Promise<Metadata> {
  const runId = pageId((await params).id);
  const run = await pageStore()
    .then(({ store }) => store?.run(runId))
    .catch(() => undefined);
  return previewMetadata(run ? runPreview(run) : { title: `${runId} · Backtrack`, description: `The run ${runId} in Backtrack's inspector.` }, `${runId} · Backtrack`);
}

export default async function RunPage({ params, searchParams }: IdPageProps) {
  await connection();
  const { id } = await params;
  const runId = pageId(id);
  const { at } = await loadRunParams(searchParams);
  const { store, problem } = await pageStore();
  if (problem) return <DatabaseProblemView problem={problem} />;
  const run = await store.run(runId);
  if (!run) notFound();
  const step = clampStep(at, run.lastSeq);
  const pageIndex = Math.floor(step / RECORD_PAGE);
  // A small run ships its outline with the page. A large one does not wait for it: the first content
  // is the record at the cursor, and the browser asks for the outline next. (Reading it here in the
  // background would queue this page's own query behind it: an embedded database runs one at a time.)
  const timeline = run.recordCount <= INLINE_OUTLINE ? await runTimeline(runId, run) : undefined;
  const entries = timeline ? timeline.entries.slice(0, timeline.entries.length) : null;
  const records = await store.history(runId, { from: pageIndex * RECORD_PAGE, limit: RECORD_PAGE });
  return (
    <RunInspector
      key={runId}
      initial={redacted({ run, entries: entries ?? null, page: { index: pageIndex, records }, at: step, summary: timeline ? summaryAt(timeline, step, run) : null })}
      secretKeys={parseSecretKeys(process.env.BACKTRACK_REDACT_KEYS)}
      // A config that fails to load must not hide the run: the dialog then offers the recorded
      // outputs only, and a replay under a model answers with the config's error.
      replay={accessSettings().readOnly ? null : { models: await replayModels().catch(() => []) }}
    />
  );
}
