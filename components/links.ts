/** Links between pages (shared by server and client components). */
export function runHref(runId: string, at?: number): string {
  return `/runs/${encodeURIComponent(runId)}${at === undefined ? "" : `?at=${at}`}`;
}

/** The diff page of runs a and b (/diff?a=&b=&at=N&realign=1): a link reproduces the view, cursor included. */
export function diffHref(view: { a: string; b: string; at?: number | null; realign?: boolean }): string {
  const params = new URLSearchParams({ a: view.a, b: view.b });
  if (view.at !== undefined && view.at !== null) params.set("at", String(view.at));
  if (view.realign) params.set("realign", "1");
  return `/diff?${params.toString()}`;
}
