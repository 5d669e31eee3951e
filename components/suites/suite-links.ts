/** Links of the suites pages (shared by server and client components). */
export function batchHref(suite: string, batchId: string): string {
  return `/suites/${encodeURIComponent(suite)}/batches/${encodeURIComponent(batchId)}`;
}
