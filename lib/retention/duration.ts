/**
 * Durations as people write them for retention: `30d`, `12h`, `90m`, `2w`, `45s` (a whole
 * number and one unit). Anything else is refused with InvalidDurationError (bad input, exit 2),
 * never read as a default: a typo must not prune more than was meant.
 */
import { BadInputError } from "../journal/errors";

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
/** About 100 years: longer than any retention, short of Date's range. */
const LONGEST_MS = 100 * 365 * 86_400_000;

/** A duration that is not `<whole number><s|m|h|d|w>`, zero, or longer than a century. */
export class InvalidDurationError extends BadInputError {
  constructor(readonly text: string) {
    super(`"${text}" is not a duration: write a whole number and a unit, for example 30d, 12h, 90m, 2w or 45s`);
  }
}

/** Milliseconds in `text` ("30d" → 2,592,000,000). */
export function parseDuration(text: string): number {
  const match = /^\s*(\d{1,9})\s*([smhdw])\s*$/i.exec(text);
  if (!match) throw new InvalidDurationError(text);
  const ms = Number(match[1]) * (UNIT_MS[match[2]!.toLowerCase()] ?? 0);
  if (ms <= 0 || ms > LONGEST_MS) throw new InvalidDurationError(text);
  return ms;
}
