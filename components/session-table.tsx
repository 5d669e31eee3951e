/** The sessions list (rendered on the server): each session links to its page; app and user set the filters. */
import Link from "next/link";
import { formatCount, formatTime } from "@/lib/inspect/view";
import type { SessionSummary } from "@/lib/sessions/types";
import { sessionHref, sessionsHref } from "./session-urls";

export function SessionTable({ sessions, filters }: { sessions: SessionSummary[]; filters: { app: string | null; user: string | null } }) {
  return (
    <table className="runs sessions-table">
      <colgroup>
        <col style={{ width: "28%" }} />
        <col style={{ width: "15%" }} />
        <col style={{ width: "15%" }} />
        <col style={{ width: "8%" }} />
        <col style={{ width: "17%" }} />
        <col style={{ width: "17%" }} />
      </colgroup>
      <thead>
        <tr>
          <th>Session</th>
          <th>App</th>
          <th>User</th>
          <th className="number">Events</th>
          <th>Created</th>
          <th>Updated</th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((session) => (
          <tr key={session.id}>
            <td className="mono">
              <Link href={sessionHref(session.id)}>{session.id}</Link>
            </td>
            <td>
              <Link href={sessionsHref({ app: session.app, user: filters.user })} title={`Only sessions of app ${session.app}`}>
                {session.app}
              </Link>
            </td>
            <td>
              <Link href={sessionsHref({ app: session.app, user: session.user })} title={`Only sessions of user ${session.user} in ${session.app}`}>
                {session.user}
              </Link>
            </td>
            <td className="number">{formatCount(session.revision)}</td>
            <td className="muted">{formatTime(session.createdAt)}</td>
            <td className="muted">{formatTime(session.updatedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
