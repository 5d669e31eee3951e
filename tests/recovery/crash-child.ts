/**
 * A process the crash test kills: drives one crashy run against the server and kills itself
 * (SIGKILL, no cleanup) just before its k-th durable write reaches the database.
 * Usage: node --import tsx tests/recovery/crash-child.ts <database url> <run id> <k>
 */
import { openStore } from "../../lib/store/index";
import { crashyAgent, sqlSink } from "./fixtures";

const [url, runId, at] = process.argv.slice(2);
const k = Number(at);
const store = await openStore({
  url,
  migrate: false,
  faults: {
    beforeWrite: (_record, count) => {
      if (count === k) process.kill(process.pid, "SIGKILL");
    },
  },
});
const sink = await sqlSink(store.client);
await crashyAgent(store, sink).run(runId as string, "Charge customer ada for the order.");
await store.close();
// Reaching here means the run had fewer than k writes.
process.exit(3);
