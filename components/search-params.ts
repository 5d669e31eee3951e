/**
 * The URL state of the pages (nuqs parsers, shared by server pages and client components):
 * a link reproduces the view. /runs?status=&agent=&q=  and  /runs/{id}?at=N&tab=waterfall
 */
import { createLoader, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { RUN_STATUSES } from "@/lib/journal/types";

/** The run page's chart tab: the flowchart (default) or the waterfall (`?tab=waterfall`). */
export const RUN_TABS = ["flowchart", "waterfall"] as const;
export type RunTab = (typeof RUN_TABS)[number];

export const runParams = { at: parseAsInteger.withDefault(0), tab: parseAsStringLiteral(RUN_TABS).withDefault("flowchart") };
export const loadRunParams = createLoader(runParams);

export const runsParams = {
  status: parseAsStringLiteral(RUN_STATUSES),
  agent: parseAsString,
  q: parseAsString,
};
export const loadRunsParams = createLoader(runsParams);
