/**
 * Search inside one run. A record is searched as its redacted text (`searchText`): its name, its
 * kind and its payload after redactSecrets, written in JSON's shape with strings unescaped (what
 * the user sees, not the journal's escapes), so a search can never match, count or quote a value
 * the server hides. A query is a case-insensitive substring, or a regular expression written
 * `/…/` (flags after the closing slash: only `i`).
 *
 * Invariants: regular expressions are a safe subset (no back-references, no lookaround, no
 * quantified group that holds a quantifier or an alternation), so matching one text takes time
 * polynomial in its length, never exponential; and a whole search gives up with
 * SearchTimeoutError past its time limit instead of holding the server's thread.
 * Pure and framework-free.
 */
import { BacktrackError } from "../journal/errors";
import type { JournalRecord } from "../journal/types";
import { redactSecrets, type RedactOptions } from "./redact";

/** A query that cannot be searched for: empty, too long, or a regular expression outside the safe subset. */
export class SearchQueryError extends BacktrackError {
  constructor(
    readonly query: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super("bad_input", `cannot search for ${JSON.stringify(query.length > 60 ? `${query.slice(0, 59)}…` : query)}: ${reason}`, options);
  }
}

/** A search that ran past its time limit (a regular expression too costly for this run). */
export class SearchTimeoutError extends BacktrackError {
  constructor(
    readonly query: string,
    readonly limitMs: number,
    readonly searched: number,
  ) {
    super("bad_input", `the search for ${JSON.stringify(query.slice(0, 60))} took over ${limitMs} ms (after ${searched} records); use a simpler pattern`);
  }
}

export const MAX_QUERY_LENGTH = 500;
/** Default time limit of one search over a run. */
export const SEARCH_TIME_LIMIT_MS = 5_000;

export interface SearchMatcher {
  query: string;
  regex: boolean;
  /** Where the first match in `text` starts and ends, or undefined. */
  find(text: string): { start: number; end: number } | undefined;
}

const SPECIAL = /[.*+?^${}()|[\]\\]/g;

/** Parses a query: `/pattern/` or `/pattern/i` is a regular expression, anything else a substring. Throws SearchQueryError. */
export function parseSearchQuery(query: string): SearchMatcher {
  if (query.trim().length === 0) throw new SearchQueryError(query, "the query is empty");
  if (query.length > MAX_QUERY_LENGTH) throw new SearchQueryError(query, `the query is over ${MAX_QUERY_LENGTH} characters`);
  const literal = /^\/(.+)\/(i?)$/s.exec(query);
  const source = literal ? literal[1]! : query.replace(SPECIAL, "\\$&");
  if (literal) checkSafePattern(query, source);
  let pattern: RegExp;
  try {
    // Always case-insensitive (the `i` flag is accepted for habit's sake); `u` makes the syntax strict.
    pattern = new RegExp(source, "iu");
  } catch (error) {
    throw new SearchQueryError(query, `not a valid regular expression (${error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : String(error)})`, {
      cause: error,
    });
  }
  return {
    query,
    regex: literal !== null,
    find(text) {
      const match = pattern.exec(text);
      return match ? { start: match.index, end: match.index + match[0].length } : undefined;
    },
  };
}

/**
 * Refuses what can make a backtracking matcher exponential: back-references, lookaround, and a
 * quantifier on a group that itself holds a quantifier or an alternation (`(a+)+`, `(a|aa)*`).
 */
function checkSafePattern(query: string, source: string): void {
  if (/\\[1-9]|\\k</.test(source)) throw new SearchQueryError(query, "back-references are not supported");
  if (/\(\?<?[=!]/.test(source)) throw new SearchQueryError(query, "lookahead and lookbehind are not supported");
  // Walk the pattern, tracking for each open group whether it holds a quantifier or a "|".
  const groups: Array<{ risky: boolean }> = [];
  for (let index = 0; index < source.length; index += 1) {
    const character = source[index]!;
    if (character === "\\") {
      index += 1;
      continue;
    }
    if (character === "[") {
      // Skip a character class whole: nothing inside it is a quantifier or a group.
      for (index += 1; index < source.length && source[index] !== "]"; index += 1) if (source[index] === "\\") index += 1;
      continue;
    }
    if (character === "(") {
      groups.push({ risky: false });
      // A group's prefix (`(?:`, `(?<name>`) is syntax, not a quantifier.
      if (source[index + 1] === "?") index = source[index + 2] === "<" ? Math.max(index, source.indexOf(">", index)) : index + 2;
    } else if (character === "|" && groups.length > 0) groups[groups.length - 1]!.risky = true;
    else if (character === ")") {
      const group = groups.pop();
      const quantified = /^[*+?{]/.test(source.slice(index + 1));
      if (group?.risky && quantified) throw new SearchQueryError(query, "a repeated group may not itself repeat or alternate (it could take exponential time)");
      if (group && groups.length > 0 && (group.risky || quantified)) groups[groups.length - 1]!.risky = true;
    } else if (/[*+?{]/.test(character) && groups.length > 0) groups[groups.length - 1]!.risky = true;
  }
}

/** The text a record is searched as: name, kind and payload as shown text, with secrets redacted first. */
export function searchText(record: Pick<JournalRecord, "name" | "kind" | "payload">, redaction: RedactOptions = {}): string {
  return `${record.name}\n${record.kind}\n${shownText(redactSecrets(record.payload, redaction))}`;
}

/**
 * A JSON value written as JSON's shape (`{"key":value}`, so `/"isError":true/` still matches) but
 * with strings as they are, not escaped: a search finds what the user sees (`"hi"`, `C:\temp`, a
 * newline, a tab), never the journal's escapes (`\"hi\"`, `C:\\temp`, `\n`). Like JSON.stringify,
 * undefined members are left out and undefined array items are null.
 */
function shownText(value: unknown, depth = 0): string {
  if (typeof value === "string") return `"${value}"`;
  if (typeof value !== "object" || value === null) return value === undefined ? "" : String(JSON.stringify(value) ?? "null");
  // redactSecrets already replaced anything deeper than its own limit.
  if (depth > 256) return "";
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "null" : shownText(item, depth + 1))).join(",")}]`;
  const members: string[] = [];
  for (const [key, item] of Object.entries(value)) if (item !== undefined && typeof item !== "function") members.push(`"${key}":${shownText(item, depth + 1)}`);
  return `{${members.join(",")}}`;
}

/** Characters of context on each side of a hit's excerpt. */
const EXCERPT_CONTEXT = 40;

/** One line around a match: whitespace folded, cut with ellipses, the match at `start`…`end`. */
export function hitExcerpt(text: string, start: number, end: number): { text: string; matchStart: number; matchEnd: number } {
  const from = Math.max(0, start - EXCERPT_CONTEXT);
  const to = Math.min(text.length, Math.max(end, start + 1) + EXCERPT_CONTEXT);
  const flat = (part: string) => part.replace(/\s+/g, " ");
  const before = `${from > 0 ? "…" : ""}${flat(text.slice(from, start))}`;
  const match = flat(text.slice(start, Math.min(end, start + 200)));
  return { text: `${before}${match}${flat(text.slice(end, to))}${to < text.length ? "…" : ""}`, matchStart: before.length, matchEnd: before.length + match.length };
}

export interface SearchHit {
  seq: number;
  name: string;
  kind: string;
  /** One line around the first match, from the redacted text. */
  excerpt: string;
  /** Where the match lies in `excerpt`. */
  matchStart: number;
  matchEnd: number;
}

export interface SearchResult {
  query: string;
  regex: boolean;
  /** Hits in the whole run. */
  total: number;
  /** The seqs of every hit, ascending (at most `maxSeqs`; `seqsTruncated` says when more matched). */
  seqs: number[];
  seqsTruncated: boolean;
  /** A page of hits with excerpts: the first `limit` hits after `cursor`. */
  hits: SearchHit[];
  /** Pass as `cursor` for the next page of hits; null at the end. */
  nextCursor: number | null;
}

/** What a search reads: one searchable text per record, by seq (seqs dense from 0). */
export interface SearchSource {
  readonly length: number;
  text(seq: number): string;
  name(seq: number): string;
  kind(seq: number): string;
}

export interface SearchOptions {
  /** Hits with excerpts after this seq (exclusive); -1 or absent: from the start. */
  cursor?: number;
  /** Hits with excerpts per page. */
  limit?: number;
  maxSeqs?: number;
  timeLimitMs?: number;
  now?: () => number;
}

export const SEARCH_PAGE = 50;
export const MAX_HIT_SEQS = 100_000;

/** Searches every text of `source` with `matcher`: the hit count, every hit's seq, and one page of hits. */
export function searchSource(source: SearchSource, matcher: SearchMatcher, options: SearchOptions = {}): SearchResult {
  const cursor = options.cursor ?? -1;
  const limit = options.limit ?? SEARCH_PAGE;
  const maxSeqs = options.maxSeqs ?? MAX_HIT_SEQS;
  const timeLimit = options.timeLimitMs ?? SEARCH_TIME_LIMIT_MS;
  const now = options.now ?? (() => performance.now());
  const started = now();
  const seqs: number[] = [];
  const hits: SearchHit[] = [];
  let total = 0;
  let nextCursor: number | null = null;
  for (let seq = 0; seq < source.length; seq += 1) {
    // A clock read every 256 records: cheap, and frequent enough to stop a costly pattern.
    if ((seq & 255) === 255 && now() - started > timeLimit) throw new SearchTimeoutError(matcher.query, timeLimit, seq);
    const text = source.text(seq);
    const found = matcher.find(text);
    if (!found) continue;
    total += 1;
    if (seqs.length < maxSeqs) seqs.push(seq);
    if (seq <= cursor) continue;
    if (hits.length < limit) {
      const excerpt = hitExcerpt(text, found.start, found.end);
      hits.push({ seq, name: source.name(seq), kind: source.kind(seq), excerpt: excerpt.text, matchStart: excerpt.matchStart, matchEnd: excerpt.matchEnd });
    } else if (nextCursor === null) nextCursor = hits[hits.length - 1]!.seq;
  }
  return { query: matcher.query, regex: matcher.regex, total, seqs, seqsTruncated: total > seqs.length, hits, nextCursor };
}

/** A SearchSource over records in memory (the CLI, the library, tests). */
export function recordsSource(records: readonly JournalRecord[], redaction: RedactOptions = {}): SearchSource {
  const texts = records.map((record) => searchText(record, redaction));
  return { length: records.length, text: (seq) => texts[seq]!, name: (seq) => records[seq]!.name, kind: (seq) => records[seq]!.kind };
}

/** Searches a run's records (seqs dense from 0, as history returns them). Throws SearchQueryError or SearchTimeoutError. */
export function searchRecords(records: readonly JournalRecord[], query: string, options: SearchOptions & { redaction?: RedactOptions } = {}): SearchResult {
  return searchSource(recordsSource(records, options.redaction), parseSearchQuery(query), options);
}
