/**
 * The URL state of the pages (nuqs parsers, shared by server pages and client components):
 * a link reproduces the view. /runs?status=&agent=&q=&forkOf=  and  /runs/{id}?at=N
 */
import { createLoader, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { RUN_STATUSES } from "@/lib/journal/types";

export const runParams = { at: parseAsInteger.withDefault(0) };
export const loadRunParams = createLoader(runParams);

export const runsParams = {
  status: parseAsStringLiteral(RUN_STATUSES),
  agent: parseAsString,
  q: parseAsString,
  /** Only the forks of this run. */
  forkOf: parseAsString,
};
export const loadRunsParams = createLoader(runsParams);
