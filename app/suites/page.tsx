import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { accessSettings } from "@/app/_server/access";
import { pageStore } from "@/app/_server/page-store";
import { replayModels } from "@/app/_server/registry";
import { DatabaseProblemView } from "@/components/database-problem";
import { runHref } from "@/components/links";
import { RunSuiteForm } from "@/components/suites/run-suite-form";
import { batchHref } from "@/components/suites/suite-links";
import { formatTime } from "@/lib/inspect/view";
import { suiteStore } from "@/lib/suites/pins";

export const metadata: Metadata = { title: "Suites · Backtrack" };

/** /suites: every suite with its pinned runs and its last batch, and "Run suite" (a batch as a server job). */
export default async function SuitesPage() {
  await connection();
  const { store, problem } = await pageStore();
  if (problem) return <DatabaseProblemView problem={problem} />;
  const suites = suiteStore(store);
  const list = await suites.suites();
  const pins = await Promise.all(list.map((suite) => suites.pins(suite.suite)));
  const models = accessSettings().readOnly ? null : await replayModels().catch(() => []);
  return (
    <div className="suites">
      <h1>Suites</h1>
      {list.length === 0 ? (
        <p className="notice">
          No suite yet. Pin a run from its page (&ldquo;Pin as test&rdquo;) or with <code>backtrack pin &lt;run&gt; --suite NAME</code>.
        </p>
      ) : null}
      {list.map((suite, index) => (
        <section key={suite.suite} className="panel" aria-label={`Suite ${suite.suite}`} data-suite={suite.suite}>
          <h2 className="mono">{suite.suite}</h2>
          <p>
            {suite.pins} pinned run{suite.pins === 1 ? "" : "s"}:{" "}
            {(pins[index] ?? []).map((pin, at) => (
              <span key={pin.runId}>
                {at > 0 ? ", " : ""}
                <Link className="mono" href={runHref(pin.runId)} title={`pinned by ${pin.pinnedBy}, ${formatTime(pin.pinnedAt)}${pin.note ? `: ${pin.note}` : ""}`}>
                  {pin.runId}
                </Link>
              </span>
            ))}
          </p>
          {suite.lastBatch ? (
            <p>
              Last batch:{" "}
              <Link href={batchHref(suite.suite, suite.lastBatch.batchId)}>
                {suite.lastBatch.model} · {formatTime(suite.lastBatch.startedAt)}
              </Link>{" "}
              — {suite.lastBatch.status === "running" ? "running, " : ""}
              {suite.lastBatch.counts.pass} passed, {suite.lastBatch.counts.changed} changed, {suite.lastBatch.counts.failed} failed, {suite.lastBatch.counts.error} errors
            </p>
          ) : (
            <p className="notice">Never run.</p>
          )}
          {models && suite.pins > 0 ? <RunSuiteForm suite={suite.suite} models={models} /> : null}
        </section>
      ))}
    </div>
  );
}
