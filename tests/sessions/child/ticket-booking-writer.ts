/**
 * A child process for the restart tests: writes the seed's ticket-booking conversation into the
 * database named by argv[2], the way argv[3] says ("absolute" or "increment"), prints what the live
 * session showed as one JSON line, closes the database and exits. A fresh process then rebuilds.
 */
import { ticketBookingEvents, TICKET_BOOKING, writeTicketBooking } from "../../../lib/demo/ticket-booking";
import { isBacktrackError } from "../../../lib/journal/errors";
import { SessionService } from "../../../lib/sessions/index";
import { openDatabase, resolveDatabase } from "../../../lib/store/index";

const [url, recording] = process.argv.slice(2);
const client = await openDatabase(resolveDatabase(url));
const service = new SessionService(client);

if (recording === "absolute") {
  const session = await writeTicketBooking(service);
  process.stdout.write(`${JSON.stringify({ live: session.state, revision: session.revision })}\n`);
} else {
  // The seed's opening run: increments, a retried E5, and the discount written onto the fetched session.
  const session = await service.create(TICKET_BOOKING);
  const { events } = ticketBookingEvents("increment");
  for (const event of events) await service.appendEvent(session, event);
  const retry = await service.append(session, events[4]!);
  let refused: { code: string; message: string } | null = null;
  try {
    (session.state as Record<string, unknown>).discount = "VIP";
  } catch (error) {
    if (!isBacktrackError(error)) throw error;
    refused = { code: error.code, message: error.message };
  }
  process.stdout.write(`${JSON.stringify({ live: session.state, revision: session.revision, retryCreated: retry.created, refused })}\n`);
}
await client.close();
