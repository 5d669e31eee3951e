import type { Metadata } from "next";
import { connection } from "next/server";
import { accessSettings } from "@/app/_server/access";
import { pageStore } from "@/app/_server/page-store";
import { redacted } from "@/app/_server/redaction";
import { DatabaseProblemView } from "@/components/database-problem";
import { RecoveryBoard } from "@/components/recovery/recovery-board";
import { recoveryBoard } from "@/lib/recovery/board";

export const metadata: Metadata = { title: "Recovery · Backtrack" };

export default async function RecoveryPage() {
  await connection();
  const { store, problem } = await pageStore();
  if (problem) return <DatabaseProblemView problem={problem} />;
  return <RecoveryBoard initial={redacted(await recoveryBoard(store))} readOnly={accessSettings().readOnly} />;
}
