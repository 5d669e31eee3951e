/**
 * The recovery demo runs, each left waiting by the real loop: a refund waiting for approval, a
 * follow-up asleep until tomorrow, a question waiting for its answer, and a payout halted on an
 * unknown outcome (its bank call was cut off after its attempt record, before any result).
 * Unblock them with `backtrack approve refund-900`, `backtrack answer concierge-5 Saturday`,
 * `backtrack recover` (the sleep, once due), `backtrack resolve payout-9 --retry` (after checking the bank).
 */
import type { Journal } from "../journal/ports";
import { conciergeAgent, payoutsAgent, schedulerAgent, supportAgent, type Bank } from "./recovery-agents";
import type { DemoRun } from "./types";

/** A bank whose connection drops mid-transfer: the drive is cancelled with the call in flight. */
function droppingBank(controller: AbortController): Bank {
  return {
    send: async () => {
      controller.abort(new Error("connection to the bank lost mid-transfer"));
      throw new Error("connection to the bank lost mid-transfer");
    },
  };
}

async function halted(store: Journal): Promise<unknown> {
  const controller = new AbortController();
  await payoutsAgent(store, undefined, droppingBank(controller))
    .run("payout-9", "Pay out $250 to account 9.", { signal: controller.signal })
    .catch((error: unknown) => {
      // The cut-off drive; a second writing of the demo halts here already (a pause, rethrown).
      if (!controller.signal.aborted) throw error;
    });
  // The next drive finds the attempt without a result and halts for a human.
  return payoutsAgent(store).run("payout-9");
}

export const RECOVERY_RUNS: DemoRun[] = [
  {
    runId: "refund-900",
    about: "a refund above the $100 limit, paused for approval",
    write: (store) => supportAgent(store).run("refund-900", "Refund $900 for order 77, the parcel never arrived."),
  },
  {
    runId: "follow-up-3",
    about: "a follow-up asleep for a day (a durable sleep with a wake time)",
    write: (store) => schedulerAgent(store).run("follow-up-3", "Remind grace about her renewal tomorrow."),
  },
  {
    runId: "concierge-5",
    about: "an agent that asked the user a question (interrupted)",
    write: (store) => conciergeAgent(store).run("concierge-5", "Book a table for two this weekend."),
  },
  {
    runId: "payout-9",
    about: "a payout halted on an unknown outcome (cut off mid-call)",
    write: halted,
  },
];
