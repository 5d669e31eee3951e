/**
 * `backtrack search <run> <text> [--json]`: the run page's search on the command line. The same
 * matcher and the same redaction as the server (lib/inspect/search.ts, BACKTRACK_REDACT_KEYS), so
 * the command never prints, nor counts, a value the inspector hides.
 */
import type { Command } from "commander";
import { RunNotFoundError } from "../../journal/errors";
import { parseSecretKeys, secretKeyMatcher } from "../../inspect/redact";
import { parseSearchQuery, recordsSource, searchSource } from "../../inspect/search";
import { common, printJson, printLine, table, withStore, type CommonOptions } from "../context";

export function registerSearch(program: Command): void {
  common(
    program
      .command("search <run> <text>")
      .description("find records of a run: a case-insensitive substring of their redacted JSON text, or /regex/")
      .addHelpText("after", "\nExamples:\n  backtrack search long-audit acct-279\n  backtrack search long-audit '/acct-27[0-9]/' --json"),
  ).action(async (runId: string, text: string, options: CommonOptions) => {
    // Parsed first: a bad pattern is reported before the database is opened.
    const matcher = parseSearchQuery(text);
    await withStore(
      options,
      async (store) => {
        if (!(await store.run(runId))) throw new RunNotFoundError(runId);
        const records = await store.history(runId);
        const source = recordsSource(records, { isSecret: secretKeyMatcher(parseSecretKeys(process.env.BACKTRACK_REDACT_KEYS)) });
        const result = searchSource(source, matcher, { limit: Number.MAX_SAFE_INTEGER, maxSeqs: Number.MAX_SAFE_INTEGER });
        if (options.json) return printJson({ runId, query: result.query, regex: result.regex, total: result.total, hits: result.hits });
        printLine(`${result.total} hit${result.total === 1 ? "" : "s"} for ${text} in ${runId}`);
        if (result.hits.length > 0) printLine(table([["SEQ", "KIND", "NAME", "MATCH"], ...result.hits.map((hit) => [String(hit.seq), hit.kind, hit.name, hit.excerpt])]));
      },
      { readOnly: true },
    );
  });
}
