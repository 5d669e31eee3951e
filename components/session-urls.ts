/**
 * The sessions pages' URL state (nuqs parsers, shared by the server pages and the client
 * components) and links: /sessions?app=&user=  and  /sessions/{id}?at=N (a link reproduces the view).
 */
import { createLoader, parseAsInteger, parseAsString } from "nuqs/server";

/** `at` absent: the last event (the state get() serves). */
export const sessionParams = { at: parseAsInteger };

export const sessionsParams = { app: parseAsString, user: parseAsString };
export const loadSessionsParams = createLoader(sessionsParams);

export function sessionHref(id: string, at?: number): string {
  return `/sessions/${encodeURIComponent(id)}${at === undefined ? "" : `?at=${at}`}`;
}

export function sessionsHref(filters: { app?: string | null; user?: string | null }): string {
  const params = new URLSearchParams();
  if (filters.app) params.set("app", filters.app);
  if (filters.user) params.set("user", filters.user);
  const query = params.toString();
  return `/sessions${query ? `?${query}` : ""}`;
}
