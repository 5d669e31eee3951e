/**
 * Writes the session "secret-session" into the e2e database (through the process that owns it):
 * one event whose content and state delta carry the secrets given as arguments, under secret
 * keys. Run with `node --import tsx e2e/plant-secret-session.ts <database url>
 * <api key> <token>`; prints the session id.
 */
import { SessionService } from "../lib/sessions/index";
import { openDatabase, resolveDatabase } from "../lib/store/index";

const SESSION = "secret-session";

const [url, apiKey, token] = process.argv.slice(2);
if (!url || !apiKey || !token) throw new Error("usage: plant-secret-session.ts <database url> <api key> <token>");
const client = await openDatabase(resolveDatabase(url));
try {
  const service = new SessionService(client);
  await service.delete(SESSION);
  const session = await service.create({ app: "billing", user: "eve", id: SESSION });
  await service.appendEvent(session, {
    id: "E1",
    author: "billing-agent",
    content: { role: "model", auth: { token } },
    actions: { stateDelta: { apiKey, plan: "pro" } },
  });
  process.stdout.write(`${SESSION}\n`);
} finally {
  await client.close();
}
