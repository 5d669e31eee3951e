import type { Metadata } from "next";
import { connection } from "next/server";
import { accessSettings } from "@/app/_server/access";
import { pageStore } from "@/app/_server/page-store";
import { DatabaseProblemView } from "@/components/database-problem";
import { RecoveryBoard } from "@/components/recovery/recovery-board";
import { boardView, recoveryBoard } from "@/lib/recovery/board";

export const metadata: Metadata = { title: "Recovery · Backtrack" };

export default async function RecoveryPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const includeImported = (await searchParams).imported === "1";
  const { store, problem } = await pageStore();
  if (problem) return <DatabaseProblemView problem={problem} />;
  const view = boardView(await recoveryBoard(store, { includeImported: true }), { includeImported });
  return <RecoveryBoard initial={view} includeImported={includeImported} readOnly={accessSettings().readOnly} />;
}
