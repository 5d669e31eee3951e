"use client";

/**
 * The sessions list's filters: app and user, exact names, kept in the URL (nuqs). The list itself
 * is rendered by the server page, which re-renders when they change (shallow: false).
 */
import { useQueryStates } from "nuqs";
import { useEffect, useState, useTransition } from "react";
import { sessionsParams } from "./session-urls";

const TYPING_PAUSE_MS = 300;

export function SessionFilters() {
  const [pending, startTransition] = useTransition();
  const [filters, setFilters] = useQueryStates(sessionsParams, { history: "replace", shallow: false, startTransition });
  const [app, setApp] = useState(filters.app ?? "");
  const [user, setUser] = useState(filters.user ?? "");

  // Another way into the filters (a link in the list, back/forward) moves the fields too; the
  // fields' own debounced writes come back equal to what they hold and change nothing.
  const [seen, setSeen] = useState(filters);
  if (seen.app !== filters.app || seen.user !== filters.user) {
    setSeen(filters);
    if ((filters.app ?? "") !== app.trim()) setApp(filters.app ?? "");
    if ((filters.user ?? "") !== user.trim()) setUser(filters.user ?? "");
  }

  // Filter once the typing pauses.
  useEffect(() => {
    const next = { app: app.trim() || null, user: user.trim() || null };
    if (next.app === filters.app && next.user === filters.user) return;
    const timer = setTimeout(() => void setFilters(next), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [app, user, filters.app, filters.user, setFilters]);

  return (
    <form className="filters" role="search" aria-label="Filter sessions" onSubmit={(event) => event.preventDefault()}>
      <label>
        App
        <input type="text" aria-label="App" placeholder="exact app name" value={app} onChange={(event) => setApp(event.target.value)} />
      </label>
      <label>
        User
        <input type="text" aria-label="User" placeholder="exact user id" value={user} onChange={(event) => setUser(event.target.value)} />
      </label>
      {filters.app || filters.user ? (
        <button
          type="button"
          onClick={() => {
            setApp("");
            setUser("");
            void setFilters({ app: null, user: null });
          }}
        >
          Clear filters
        </button>
      ) : null}
      <span className="notice" role="status">
        {pending ? "Loading…" : ""}
      </span>
    </form>
  );
}
