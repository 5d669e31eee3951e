/** What a dynamic page `[id]` receives, and how its id is read. */
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
