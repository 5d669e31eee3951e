/** Crash recovery: enumerate unfinished runs, lease them, re-drive them; timers and decisions. */
export { recover, isComplete, unfinished, driveRun, type Resume, type RecoverOptions, type RecoverResult, type RecoveredRun, type RecoveryOutcome } from "./recover";
export { lease, defaultHolder, DEFAULT_LEASE_TTL_MS, type LeaseOptions } from "./lease";
export { wakeDue, type WakeOptions } from "./wake";
export { MemWaker, withWaker, type MemWakerOptions } from "./waker";
export type { Waker, Wake } from "../journal/ports";
export { approve, answer, resolveHalt, rootRunOf, type ApprovalDecision, type Decided, type Resolution } from "./pause-decisions";
export { registryResume, type RegistryResumeOptions } from "./resume";
export { LeaseHeldError, LeaseLostError, RecoveryError, NotWaitingError, NoRecordedInputError, type RunFailure } from "./errors";
