import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { BadInputError, RunNotFoundError } from "../../journal/errors";
import { importLines, type ImportProgress } from "../../journal/import";
import { parseSecretKeys, secretKeyMatcher } from "../../inspect/redact";
import { exportRunOtlp, pushOtlp } from "../../otel/export";
import { toJsonl } from "../../journal/jsonl";
import type { Journal } from "../../journal/ports";
import { matchingRuns, parseRunFilter } from "../../suites/bulk";
import { treeRecords } from "../../suites/transfer";
import { CliError, common, printJson, printLine, withStore, type CommonOptions } from "../context";

/** Moved to lib/suites (a suite export needs it too); kept here for the callers of this module. */
export { treeRecords };

export function registerTransfer(program: Command): void {
  common(
    program
      .command("export [run]")
      .description(
        "write a run and its sub-agent runs as JSONL to stdout (or every run matching --filter), or the run as OTLP JSON (--format otlp), or push it to an OTLP collector",
      )
      .option("--filter <query>", "every root run matching this, e.g. 'status=failed&agent=billing' (keys: status, agent, search)")
      .option("--format <format>", "jsonl, or otlp: OTLP/JSON traces with GenAI attributes, secrets redacted", "jsonl")
      .option("--otlp-endpoint <url>", "POST the run as OTLP/JSON to this traces endpoint (e.g. http://collector:4318/v1/traces)")
      .option("--header <K=V>", "a header for --otlp-endpoint (repeatable), e.g. Authorization=Bearer …", (value: string, all: string[]) => [...all, value], [] as string[]),
    { json: false },
  ).action(async (runId: string | undefined, options: CommonOptions & ExportOptions & { filter?: string }) => {
    const query = exactlyOne(runId, options.filter);
    if (options.format !== "jsonl" && options.format !== "otlp") throw new BadInputError(`--format must be jsonl or otlp, not "${options.format}"`);
    const otlp = options.format === "otlp" || options.otlpEndpoint !== undefined;
    if (otlp && runId === undefined) throw new BadInputError("--format otlp and --otlp-endpoint export one run: name it instead of --filter");
    await withStore(options, async (store) => {
      if (runId !== undefined && !(await store.run(runId))) throw new RunNotFoundError(runId);
      if (otlp && runId !== undefined) return exportOtlp(store, runId, options);
      const runIds = runId !== undefined ? [runId] : await matchingRuns(store, query);
      const seen = new Set<string>();
      for (const id of runIds) process.stdout.write(toJsonl(await treeRecords(store, id, seen)));
    });
  });

  common(
    program
      .command("import <file>")
      .description("import runs from a JSONL file of any size, read line by line (all or nothing: a malformed line, a run that exists, or a kill imports nothing)"),
  ).action(async (file: string, options: CommonOptions) => {
    try {
      if (!(await stat(file)).isFile()) throw new Error("not a regular file");
    } catch (error) {
      throw new BadInputError(`cannot read ${file}: ${(error as Error).message}`, { cause: error });
    }
    await withStore(options, async (store) => {
      const progress = progressLine();
      const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Number.POSITIVE_INFINITY });
      const result = await importLines(store, lines, { onProgress: progress.show }).finally(progress.end);
      if (options.json) printJson(result);
      else printLine(`imported ${result.imported} records in ${result.runs.length} run(s): ${brief(result.runs)}`);
    });
  });
}

/** The run as OTLP/JSON on stdout, or pushed to `--otlp-endpoint`. */
async function exportOtlp(store: Journal, runId: string, options: ExportOptions): Promise<void> {
  const request = await exportRunOtlp(store, runId, { isSecret: secretKeyMatcher(parseSecretKeys(process.env.BACKTRACK_REDACT_KEYS)) });
  if (options.otlpEndpoint === undefined) return void process.stdout.write(`${JSON.stringify(request)}\n`);
  const { status } = await pushOtlp(options.otlpEndpoint, request, headersOf(options.header));
  printLine(`pushed run ${runId} to ${options.otlpEndpoint} (${status})`);
}

interface ExportOptions {
  format: string;
  otlpEndpoint?: string;
  header: string[];
}

/** `K=V` pairs as headers; BadInputError for one without `=`. */
function headersOf(pairs: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new BadInputError(`--header must be K=V, not "${pair}"`);
    headers[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return headers;
}

/** Up to ten run ids, then how many more. */
function brief(runIds: string[]): string {
  return runIds.length <= 10 ? runIds.join(", ") : `${runIds.slice(0, 10).join(", ")} and ${runIds.length - 10} more`;
}

/** "\r imported N records (X MB)" on stderr when it is a terminal; nothing in a pipe or a file. */
function progressLine(): { show: (progress: ImportProgress) => void; end: () => void } {
  if (!process.stderr.isTTY) return { show: () => undefined, end: () => undefined };
  let shown = false;
  return {
    show: ({ records, bytes }) => {
      shown = true;
      process.stderr.write(`\r imported ${records} records (${(bytes / 1024 / 1024).toFixed(1)} MB)`);
    },
    end: () => {
      if (shown) process.stderr.write("\n");
    },
  };
}

/** A run id or `--filter` (the filter parsed), never both, never neither. */
export function exactlyOne(runId: string | undefined, filter: string | undefined): ReturnType<typeof parseRunFilter> {
  if ((runId === undefined) === (filter === undefined)) throw new CliError("name a run, or pass --filter 'status=failed&agent=billing': one of the two");
  return filter === undefined ? {} : parseRunFilter(filter);
}
