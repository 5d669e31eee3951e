/**
 * The ticket-booking session of the session-recovery seed (E1–E6): a user adds 2 tickets, the agent
 * quotes Q-77 under temp:quote, the user adds 1 more, a network retry sends the second cart change
 * twice, and the agent applies a VIP discount. Two ways of recording it:
 * - "absolute" (what the service supports, ADK's shape): every change is an absolute value in an
 *   event's stateDelta, the discount included;
 * - "increment" (the seed's faulty opening): cart changes as `{ cart: { add: n } }` and the discount
 *   written straight onto the fetched session's state, which Backtrack refuses.
 */
import type { Journal } from "../journal/ports";
import { SessionService } from "../sessions/service";
import type { Session } from "../sessions/session";
import type { NewSessionEvent, StateDelta } from "../sessions/types";
import type { SqlClient } from "../store/sql-client";

export const TICKET_BOOKING = { id: "ticket-booking", app: "tickets", user: "ann" } as const;

export type CartRecording = "absolute" | "increment";

const AGENT = "booking-agent";
const START = Date.parse("2026-11-02T10:00:00.000Z");

function event(number: number, author: string, invocationId: string, text: string, stateDelta?: StateDelta): NewSessionEvent {
  return {
    id: `E${number}`,
    author,
    invocationId,
    content: { role: author === "user" ? "user" : "model", parts: [{ text }] },
    timestamp: new Date(START + number * 15_000).toISOString(),
    ...(stateDelta ? { actions: { stateDelta } } : {}),
  };
}

/**
 * E1–E5 in order (E5 is the cart change a network retry sends twice). E6, the discount, is returned
 * apart: the faulty way never records it as an event.
 */
export function ticketBookingEvents(recording: CartRecording): { events: NewSessionEvent[]; discount: NewSessionEvent } {
  const cart = (absolute: number, add: number): StateDelta => ({ cart: recording === "absolute" ? absolute : { add } });
  return {
    events: [
      event(1, "user", "inv-1", "Add 2 tickets for Friday's show to my cart."),
      event(2, AGENT, "inv-1", "Added 2 tickets to your cart.", cart(2, 2)),
      event(3, AGENT, "inv-1", "Your quote is Q-77: 2 tickets for €90, valid for this turn.", { "temp:quote": "Q-77" }),
      event(4, "user", "inv-2", "Add 1 more ticket, please."),
      event(5, AGENT, "inv-2", "Added 1 more ticket: 3 in your cart.", cart(3, 1)),
    ],
    discount: event(6, AGENT, "inv-2", "You are a VIP member: discount applied.", { discount: "VIP" }),
  };
}

/**
 * Writes the absolute-values conversation (E1–E6) into a session with the fixture's id, the retried
 * E5 included (dropped as a duplicate). Safe to run again: a stored event id is never stored twice.
 */
export async function writeTicketBooking(service: SessionService, id: string = TICKET_BOOKING.id): Promise<Session> {
  const session = (await service.get(id)) ?? (await service.create({ ...TICKET_BOOKING, id }));
  const { events, discount } = ticketBookingEvents("absolute");
  for (const next of events) await service.appendEvent(session, next);
  // The network retry: the second cart change arrives again. Storage keeps the first.
  await service.appendEvent(session, events[4] as NewSessionEvent);
  await service.appendEvent(session, discount);
  return session;
}

/** The demo's sessions, written when the journal is on a database (a PostgresStore has a SqlClient). */
export async function writeDemoSessions(store: Journal): Promise<void> {
  const client = (store as Journal & { client?: SqlClient }).client;
  if (!client || typeof client.query !== "function") return;
  await writeTicketBooking(new SessionService(client));
}
