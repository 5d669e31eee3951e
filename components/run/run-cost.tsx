"use client";

/**
 * What a run's model turns cost, as the server prices them (GET /api/runs/{id}/cost: the kept
 * price table with the config's `pricing` on top): the run's total in the header, a model turn's
 * own cost in the detail panel, the cost so far in the state panel. An unpriced model shows "—",
 * never $0.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { costOf, formatUsd, type RunCost } from "@/lib/agent/pricing";
import type { JournalRecord } from "@/lib/journal/types";
import { getJson } from "../api";
import { runPath } from "./outline-pages";

export type RunCostAnswer = RunCost & { runId: string; table: { version: string; source: string; date: string } };

/** The run's cost, fetched again when the run grows (`lastSeq`). */
export function useRunCost(runId: string, lastSeq: number) {
  return useQuery({
    queryKey: ["cost", runId, lastSeq],
    queryFn: () => getJson<RunCostAnswer>(`${runPath(runId)}/cost`),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

function explain(cost: RunCostAnswer): string {
  const models = cost.byModel.map((row) => `${row.model}: ${row.price ? formatUsd(row.costUsd) : "no price"} (${row.turns} turns)`).join("; ");
  const unpriced = cost.unpricedTurns > 0 ? ` ${cost.unpricedTurns} turns have no price (priced turns: ${formatUsd(cost.pricedUsd)}).` : "";
  return `${models || "no model turns"}.${unpriced} Prices: ${cost.table.version} (${cost.table.source}, ${cost.table.date}).`;
}

/** The header's "cost $x" fact. */
export function RunCostFact({ runId, lastSeq }: { runId: string; lastSeq: number }) {
  const { data } = useRunCost(runId, lastSeq);
  return (
    <li data-testid="run-cost" title={data ? explain(data) : undefined}>
      cost <strong aria-label="Run cost">{data ? formatUsd(data.costUsd) : "…"}</strong>
    </li>
  );
}

/** A model turn's cost at its model's price ("—" when the model has none); nothing for other records. */
export function StepCost({ record, lastSeq }: { record: JournalRecord; lastSeq: number }) {
  const { data } = useRunCost(record.runId, lastSeq);
  if (record.kind !== "model") return null;
  const payload = (record.payload ?? {}) as { model?: unknown; usage?: { inputTokens?: number; outputTokens?: number } };
  const model = typeof payload.model === "string" ? payload.model : "";
  const price = data?.byModel.find((row) => row.model === (model || "unknown"))?.price ?? null;
  const cost = data ? costOf(price, payload.usage ?? {}) : undefined;
  return (
    <p className="muted" data-testid="step-cost">
      cost <strong>{data ? formatUsd(cost) : "…"}</strong>
      {model ? ` · ${model}` : ""}
      {price ? ` at $${price.input} in / $${price.output} out per million tokens` : data ? " (no price for this model)" : ""}
    </p>
  );
}

/**
 * The cost so far from the running token totals: exact when the run's turns use one priced model;
 * "—" when they use several (the totals do not say which tokens were whose) or an unpriced one.
 */
export function CostSoFar({ runId, lastSeq, usage }: { runId: string; lastSeq: number; usage: { inputTokens: number; outputTokens: number } }) {
  const { data } = useRunCost(runId, lastSeq);
  const only = data?.byModel.length === 1 ? data.byModel[0] : undefined;
  const cost = data?.byModel.length === 0 ? 0 : only ? costOf(only.price, usage) : null;
  return (
    <li>
      Cost: <strong>{data ? formatUsd(cost) : "…"}</strong>
    </li>
  );
}

/** The diff page's costs of its two sides: what run A and run B cost ("—" where unknown). */
export function SideCosts({ a, b }: { a: string; b: string }) {
  const costA = useRunCost(a, -1).data;
  const costB = useRunCost(b, -1).data;
  return (
    <li data-testid="diff-costs">
      cost A <strong aria-label="Cost of A">{costA ? formatUsd(costA.costUsd) : "…"}</strong> · B <strong aria-label="Cost of B">{costB ? formatUsd(costB.costUsd) : "…"}</strong>
    </li>
  );
}
