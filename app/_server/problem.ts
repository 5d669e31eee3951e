/**
 * What to tell a user whose database cannot be opened: the error, and what to check for the
 * kind of database configured. Pages render it instead of a blank error (a production build
 * hides server error messages from error boundaries, so this is rendered on the server).
 */
import "server-only";
import { isBacktrackError } from "@/lib/journal/errors";
import { redact, resolveDatabase } from "@/lib/store";

export interface DatabaseProblem {
  title: string;
  message: string;
  target: string;
  checks: string[];
}

export function databaseProblem(error: unknown): DatabaseProblem | undefined {
  if (!isBacktrackError(error) || !["database_unreachable", "database_locked", "config"].includes(error.code)) return undefined;
  let target = "the embedded database in .backtrack/";
  let server = false;
  try {
    const resolved = resolveDatabase(process.env.DATABASE_URL);
    server = resolved.kind === "server";
    target = resolved.kind === "server" ? redact(resolved.url) : `the embedded database in ${resolved.folder}`;
  } catch {
    target = "DATABASE_URL (unsupported value)";
  }
  const checks = server
    ? [
        "Is the PostgreSQL server running and reachable from this machine? (pg_isready -h HOST -p PORT)",
        "Does the database named in DATABASE_URL exist, and do the user and password in it work?",
        "Is DATABASE_URL the one you meant? Restart the inspector after changing it.",
        "Or unset DATABASE_URL to use the embedded database in .backtrack/.",
      ]
    : error.code === "database_locked"
      ? ["Another process holds the embedded database folder and does not answer: stop it, or", "remove owner.json in the folder if that process is gone, then reload."]
      : ["Is the folder readable and writable by this user?", "Or set DATABASE_URL=postgres://… to use a PostgreSQL server."];
  return { title: "The database cannot be opened", message: error.message, target, checks };
}
