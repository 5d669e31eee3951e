/** The playground: re-run one journaled model turn N times, see the split, fork the try you like. */
export { TryError } from "./errors";
export { forkTry, reserveTryFork, type TryForkOptions } from "./fork-try";
export { requestAt, type StepRequest } from "./request";
export { outputDiff, outputText, summarizeTries, type ArgumentDifference, type TryOutcome, type TrySummary } from "./summary";
export { MAX_TRIES, tryStep, type StepTries, type TryEdits, type TryOptions, type TryResult } from "./try-step";
