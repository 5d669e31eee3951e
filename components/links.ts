/** Links between pages (shared by server and client components). */
export function runHref(runId: string, at?: number): string {
  return `/runs/${encodeURIComponent(runId)}${at === undefined ? "" : `?at=${at}`}`;
}
