import Link from "next/link";
import { connection } from "next/server";
import { getStore } from "@/app/_server/store";

export default async function RunsPage() {
  await connection();
  const store = await getStore();
  const { runs } = await store.runs({ limit: 100 });
  return (
    <>
      <h1>Runs</h1>
      {runs.length === 0 ? (
        <div className="panel">
          <p>No runs yet. Journal one with the library:</p>
          <pre>{`import { Agent, openStore } from "backtrack";
const store = await openStore(); // DATABASE_URL, or the embedded database in .backtrack/
await new Agent({ model, store, tools }).run("order-123", "Please charge order 123.");`}</pre>
          <p>
            or write the demo runs: <code>npx backtrack demo</code>
          </p>
        </div>
      ) : (
        <table className="runs">
          <thead>
            <tr>
              <th>Run</th>
              <th>Agent</th>
              <th>Status</th>
              <th>Records</th>
              <th>Model turns</th>
              <th>Tokens</th>
              <th>Started</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.runId}>
                <td className="mono">
                  <Link href={`/runs/${encodeURIComponent(run.runId)}`}>{run.runId}</Link>
                </td>
                <td>{run.agent}</td>
                <td className={`status-${run.status}`}>{run.pause ? `paused: ${run.pause.reason}` : run.status}</td>
                <td>{run.recordCount}</td>
                <td>{run.modelTurns}</td>
                <td>{run.inputTokens + run.outputTokens}</td>
                <td className="muted">{new Date(run.startedAt).toISOString().replace("T", " ").slice(0, 19)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
