/** What an empty database shows: how to write runs into it, not a blank page. */
export function EmptyState({ database }: { database: { kind: string; target: string } }) {
  return (
    <section className="panel empty" aria-labelledby="empty-heading">
      <h2 id="empty-heading">No runs yet</h2>
      <p>
        This inspector reads {database.kind === "server" ? "the PostgreSQL database" : "the embedded database"} <code>{database.target}</code>. Runs appear here live as they are
        written.
      </p>
      <h3>Write the demo runs, or watch one grow</h3>
      <pre>{`npx backtrack demo            # order-123, trip-42, long-audit, …
npx backtrack demo --live     # a run that takes a step every half second`}</pre>
      <h3>Journal your own agent</h3>
      <pre>{`import { Agent, openStore } from "backtrack";

// DATABASE_URL=postgres://… for a server; unset, the embedded database in .backtrack/
const store = await openStore();
const agent = new Agent({ name: "billing", model, store, tools: [chargeCard] });
await agent.run("order-123", "Please charge order 123.");`}</pre>
      <p className="muted">
        Point the writer and this inspector at the same database: the same <code>DATABASE_URL</code>, or, for the embedded database, the same folder (a second process reaches it
        through the one that holds it).
      </p>
    </section>
  );
}
