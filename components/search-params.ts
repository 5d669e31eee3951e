/**
 * The URL state of the pages (nuqs parsers, shared by server pages and client components):
 * a link reproduces the view. /runs?status=&agent=&q=&forkOf=&sort=cost&order=asc  and  /runs/{id}?at=N&q=&view=&show=&tab=waterfall
 */
import { createLoader, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { RUN_STATUSES } from "@/lib/journal/types";

export const RUN_VIEWS = ["expanded", "aggregated"] as const;
/** The run page's chart tab: the flowchart (default) or the waterfall (`?tab=waterfall`). */
export const RUN_TABS = ["flowchart", "waterfall"] as const;
export type RunTab = (typeof RUN_TABS)[number];

/** at: the cursor; q: the search; view: the chart (absent: aggregated for runs too large to draw whole); show: the records list's filter; tab: flowchart or waterfall. */
export const runParams = {
  at: parseAsInteger.withDefault(0),
  q: parseAsString,
  view: parseAsStringLiteral(RUN_VIEWS),
  show: parseAsString,
  tab: parseAsStringLiteral(RUN_TABS).withDefault("flowchart"),
};
export const loadRunParams = createLoader(runParams);

export const runsParams = {
  status: parseAsStringLiteral(RUN_STATUSES),
  agent: parseAsString,
  q: parseAsString,
  /** Only the forks of this run. */
  forkOf: parseAsString,
  /** Absent: newest first. `cost`: by cost, `order` desc (absent) or asc, unknown costs last. */
  sort: parseAsStringLiteral(["cost"] as const),
  order: parseAsStringLiteral(["asc", "desc"] as const),
};
export const loadRunsParams = createLoader(runsParams);
