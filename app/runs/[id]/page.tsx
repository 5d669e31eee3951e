import { notFound } from "next/navigation";
import { connection } from "next/server";
import { getStore } from "@/app/_server/store";
import { MermaidChart } from "@/components/mermaid-chart";
import { buildFlow } from "@/lib/inspect/flow";
import { flowToMermaid } from "@/lib/inspect/mermaid";

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const { id } = await params;
  const runId = decodeURIComponent(id);
  const store = await getStore();
  const run = await store.run(runId);
  if (!run) notFound();
  const source = flowToMermaid(buildFlow(await store.history(runId)));
  return (
    <>
      <h1 className="mono">{run.runId}</h1>
      <p className="muted">
        {run.agent} · <span className={`status-${run.status}`}>{run.status}</span> · {run.recordCount} records · {run.modelTurns} model turns
      </p>
      <MermaidChart source={source} label={`Flowchart of run ${run.runId}`} />
    </>
  );
}
