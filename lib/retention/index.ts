/** Retention: prune old runs and sessions, once or on a schedule. */
export { InvalidDurationError, parseDuration } from "./duration";
export { DEFAULT_BATCH_SIZE, pruneRuns, type BatchPruner, type PruneOptions, type PruneResult } from "./prune";
export { RETENTION_EVERY_MS, retentionFromEnv, startRetention, type Retention, type RetentionOptions } from "./schedule";
