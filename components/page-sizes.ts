/** Page sizes shared by server pages and client components (a "use client" module cannot export values to the server). */

/** Records per page fetched around the cursor. */
export const RECORD_PAGE = 100;
/** Runs per keyset page of the runs list. */
export const RUNS_PAGE = 100;
/** Diff entries (with both sides' detail) per page fetched around the diff page's cursor. */
export const DIFF_PAGE = 100;
