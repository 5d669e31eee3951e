/** What an empty sessions list shows: how sessions are written, not a blank page. */
export function SessionsEmpty({ database }: { database: { kind: string; target: string } }) {
  return (
    <section className="panel empty" aria-labelledby="sessions-empty-heading">
      <h2 id="sessions-empty-heading">No sessions yet</h2>
      <p>
        This inspector reads {database.kind === "server" ? "the PostgreSQL database" : "the embedded database"} <code>{database.target}</code>. A session is an append-only list of
        events written by <code>SessionService</code>; its state is rebuilt from the <code>stateDelta</code> each event carries.
      </p>
      <h3>Write the demo session</h3>
      <pre>{`npx backtrack demo            # the ticket-booking session (and the demo runs)`}</pre>
      <h3>Write your own</h3>
      <pre>{`import { openDatabase, resolveDatabase, SessionService } from "backtrack";

// DATABASE_URL=postgres://… for a server; unset, the embedded database in .backtrack/
const sessions = new SessionService(await openDatabase(resolveDatabase(process.env.DATABASE_URL)));
const session = await sessions.create({ app: "tickets", user: "ann", id: "ticket-booking" });
await sessions.appendEvent(session, {
  id: "E2",                                   // a retried append of E2 is dropped
  author: "booking-agent",
  actions: { stateDelta: { cart: 2 } },       // absolute values; temp: keys are never stored
});`}</pre>
      <p className="muted">
        Every change to the state goes through an event: writing to <code>session.state</code> throws, because a rebuild from storage would lose it.
      </p>
    </section>
  );
}
