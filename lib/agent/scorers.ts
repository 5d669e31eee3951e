/**
 * Named scorers: how a run and its replay (or fork) are judged "pass" or "fail" by `backtrack test`,
 * `bisectRun` and regression reports. A scorer is registered by name (the registry, or `scorers` in
 * backtrack.config.ts) so that a CLI flag, a stored suite batch or a job input can name it.
 *
 * The registry sits below lib/inspect, so a scorer's parameter is typed by the few fields every
 * diff has (`ScoredDiff`); a scorer written against lib/inspect's full `RunDiff` registers as is,
 * because `score` is a method (its parameter is checked bivariantly).
 */
import { ConfigError } from "../journal/errors";

/** What every diff handed to a scorer carries: the two run ids and the first divergent row. */
export interface ScoredDiff {
  a: string;
  b: string;
  /** Index of the first row that differs; null when the runs decide identically. */
  divergentAt: number | null;
}

/** A scorer's verdict. `score` is optional detail (0..1 by convention); `pass` decides. */
export interface ScoreResult {
  pass: boolean;
  score?: number;
  reason?: string;
}

export interface ScorerEntry {
  name: string;
  description?: string;
  /** A boolean is read as `{ pass }`. */
  score(diff: ScoredDiff): ScoreResult | boolean | Promise<ScoreResult | boolean>;
}

/** The default scorer: the replay passes when it makes the same decisions as the run it replays. */
export const SAME_DECISIONS: ScorerEntry = {
  name: "same-decisions",
  description: "passes when the replay makes the same decisions as the recorded run",
  score: (diff) => (diff.divergentAt === null ? { pass: true, score: 1 } : { pass: false, score: 0, reason: `the runs part at row ${diff.divergentAt}` }),
};

/** Runs a scorer and normalises its answer; anything but a boolean or `{ pass: boolean }` is a typed error. */
export async function runScorer(entry: ScorerEntry, diff: ScoredDiff): Promise<ScoreResult> {
  const value = await entry.score(diff);
  if (typeof value === "boolean") return { pass: value };
  if (typeof value === "object" && value !== null && typeof (value as ScoreResult).pass === "boolean") return value;
  throw new ConfigError(`scorer "${entry.name}" returned ${JSON.stringify(value) ?? String(value)}; a scorer returns a boolean or { pass: boolean, score?, reason? }`);
}
