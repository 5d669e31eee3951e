/**
 * What a dynamic page `[id]` receives, and how its id and filters are read. Invariant: a page never
 * sends the database an id or filter it would refuse (NUL, over the id length): such a page is not
 * found, as no run or session could have it (the same rules as the API's, in url-input.ts).
 */
import { notFound } from "next/navigation";
import { hasNul, idParam } from "./url-input";

export interface IdPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** Page params arrive URL-encoded (route handlers' arrive decoded); a malformed escape is taken as is. */
export function decodePathParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The page's id, decoded; an id no run or session could have is not found (404). */
export function pageId(value: string): string {
  const id = decodePathParam(value);
  if (!idParam.safeParse(id).success) notFound();
  return id;
}

/** Filters from the page's query; one holding NUL matches nothing and is not found (404). */
export function pageFilters<Filters extends Record<string, unknown>>(filters: Filters): Filters {
  if (Object.values(filters).some((value) => typeof value === "string" && hasNul(value))) notFound();
  return filters;
}
