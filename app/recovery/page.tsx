import type { Metadata } from "next";
import { connection } from "next/server";
import { accessSettings } from "@/app/_server/access";
import { previewMetadata } from "@/app/_server/link-preview";
import { pageStore } from "@/app/_server/page-store";
import { redacted } from "@/app/_server/redaction";
import { DatabaseProblemView } from "@/components/database-problem";
import { RecoveryBoard } from "@/components/recovery/recovery-board";
import { recoveryPreview } from "@/lib/inspect/link-preview";
import { boardView, recoveryBoard } from "@/lib/recovery/board";

/** A shared recovery link unfurls with how many runs wait, and for what. */
export async function generateMetadata(): Promise<Metadata> {
  const board = await pageStore()
    .then(({ store }) => (store ? recoveryBoard(store) : undefined))
    .catch(() => undefined);
  return previewMetadata(board ? recoveryPreview(board) : { title: "Recovery · Backtrack", description: "Every unfinished run, what it waits for, and how to unblock it." });
}

export default async function RecoveryPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const includeImported = (await searchParams).imported === "1";
  const { store, problem } = await pageStore();
  if (problem) return <DatabaseProblemView problem={problem} />;
  const view = redacted(boardView(await recoveryBoard(store, { includeImported: true }), { includeImported }));
  return <RecoveryBoard initial={view} includeImported={includeImported} readOnly={accessSettings().readOnly} />;
}
