/**
 * Writes the session "direct-write" into the e2e database (through the process that owns it) and
 * then plants the seed's lost write below the service: the stored snapshot says cart 5 and
 * discount VIP, while the stored events say cart 2 and nothing about a discount. Run with
 * `node --import tsx e2e/plant-divergence.ts <database url>`; prints the session id.
 */
import { SessionService } from "../lib/sessions/index";
import { openDatabase, resolveDatabase } from "../lib/store/index";

const PLANTED_SESSION = "direct-write";

const url = process.argv[2];
if (!url) throw new Error("usage: plant-divergence.ts <database url>");
const client = await openDatabase(resolveDatabase(url));
try {
  const service = new SessionService(client);
  await service.delete(PLANTED_SESSION);
  const session = await service.create({ app: "tickets", user: "bob", id: PLANTED_SESSION });
  await service.appendEvent(session, { id: "E1", author: "user", content: { role: "user", parts: [{ text: "Add 2 tickets." }] } });
  await service.appendEvent(session, {
    id: "E2",
    author: "booking-agent",
    content: { role: "model", parts: [{ text: "Added 2 tickets." }] },
    actions: { stateDelta: { cart: 2 } },
  });
  await client.exec(`UPDATE sessions SET state = '{"cart": 5, "discount": "VIP"}' WHERE id = '${PLANTED_SESSION}'`);
  process.stdout.write(`${PLANTED_SESSION}\n`);
} finally {
  await client.close();
}
