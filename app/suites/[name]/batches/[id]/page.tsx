import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { pageId } from "@/app/_server/page-params";
import { pageStore } from "@/app/_server/page-store";
import { redacted } from "@/app/_server/redaction";
import { DatabaseProblemView } from "@/components/database-problem";
import { BatchPage } from "@/components/suites/batch-view";
import { isBacktrackError } from "@/lib/journal/errors";
import { SUITE_NAME } from "@/lib/suites/errors";
import { suiteStore } from "@/lib/suites/pins";
import { batchView, type BatchView } from "@/lib/suites/view";

interface BatchPageProps {
  params: Promise<{ name: string; id: string }>;
}

export async function generateMetadata({ params }: BatchPageProps): Promise<Metadata> {
  const { name } = await params;
  return { title: `Suite ${decodeURIComponent(name)} · Backtrack` };
}

/** /suites/{name}/batches/{id}: one batch, live while it runs. */
export default async function SuiteBatchPage({ params }: BatchPageProps) {
  await connection();
  const { name, id } = await params;
  const suite = pageId(name);
  const batchId = pageId(id);
  if (!SUITE_NAME.test(suite)) notFound();
  const { store, problem } = await pageStore();
  if (problem) return <DatabaseProblemView problem={problem} />;
  let view: BatchView;
  try {
    view = await batchView(suiteStore(store), suite, batchId);
  } catch (error) {
    if (isBacktrackError(error, "not_found")) notFound();
    throw error;
  }
  return <BatchPage initial={redacted(view)} />;
}
