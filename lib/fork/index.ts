/** lib/fork: fork a run at a step, edit what happened there, go live from it (see README.md). */
export { applyEdit, EDIT_TARGETS, type EditedRecord, type ForkEdit, type ForkEditKind, type UserMessagePayload } from "./edits";
export { ForkError, MissingModelError } from "./errors";
export { driveFork, forkRun, prepareFork, reserveFork, type ForkOptions, type ForkResult, type ForkRunOptions } from "./fork-run";
export { forkPlan, type ForkPlan, type PlannedTool } from "./plan";
export { bisectRun, BisectError, type BisectFork, type BisectOptions, type BisectResult } from "./bisect";
