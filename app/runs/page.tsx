import type { Metadata } from "next";
import { connection } from "next/server";
import { accessSettings } from "@/app/_server/access";
import { previewMetadata } from "@/app/_server/link-preview";
import { pageFilters } from "@/app/_server/page-params";
import { pageStore } from "@/app/_server/page-store";
import { redacted } from "@/app/_server/redaction";
import { replayModels } from "@/app/_server/registry";
import { serverRuns } from "@/app/_server/runs-list";
import { DatabaseProblemView } from "@/components/database-problem";
import { RUNS_PAGE } from "@/components/page-sizes";
import { RunsList } from "@/components/runs/runs-list";
import { loadRunsParams } from "@/components/search-params";
import { agentNames } from "@/lib/store/agents";

export const metadata: Metadata = previewMetadata({ title: "Runs · Backtrack", description: "Every agent run in the journal: status, records, model turns, tokens and cost." });

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const filters = pageFilters(await loadRunsParams(searchParams));
  const { store, problem } = await pageStore();
  if (problem) return <DatabaseProblemView problem={problem} />;
  const [page, agents] = await Promise.all([
    serverRuns(store, {
      ...{ status: filters.status ?? undefined, agent: filters.agent ?? undefined, search: filters.q ?? undefined, forkOf: filters.forkOf ?? undefined },
      ...{ sort: filters.sort ?? undefined, order: filters.sort ? (filters.order ?? undefined) : undefined, limit: RUNS_PAGE },
    }),
    agentNames(store.client),
  ]);
  // Bulk actions write (pins, replays): absent on a read-only server, which refuses them anyway.
  const models = accessSettings().readOnly ? null : await replayModels().catch(() => []);
  return <RunsList initial={{ filters, page: redacted(page) }} agents={agents} database={{ kind: store.client.kind, target: store.client.target }} models={models} />;
}
