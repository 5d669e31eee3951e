/**
 * `backtrack/demo`: the demo's scripted agents, models, runs and session, as `backtrack demo` and
 * the inspector use them. The main entry holds no demo code; the CLI and the inspector's server add
 * the demo registry themselves. tests/api/public-names.test.ts holds the list.
 */

/** The demo's agents and models by name (demo/v1, demo/v2; billing, support, …), for replays and recovery. */
export { demoRegistry } from "./registry";
/** The demo's scripted model: `v1`, or `v2`, which charges order 123 $5000 instead of $500. */
export { demoModel } from "./models";
/** Write the demo runs into a journal (what `backtrack demo` does), and the list of them. */
export { writeDemo, demoRuns, type DemoProgress } from "./seed";
/** A demo run (its id, what it shows, how it is written) and the demo model's versions. */
export type { DemoRun, DemoVersion } from "./types";
/** A run that keeps writing while it is watched (`backtrack demo --live`). */
export { runLiveDemo, liveAgent, type LiveDemoOptions } from "./live";
/** The ticket-booking session of the sessions demo. */
export { TICKET_BOOKING, ticketBookingEvents, writeTicketBooking, type CartRecording } from "./ticket-booking";
