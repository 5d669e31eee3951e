import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Command } from "commander";
import type { SignalPayload, ToolResultPayload } from "../../agent/payloads";
import { BadInputError, RunNotFoundError } from "../../journal/errors";
import { importLines, type ImportProgress } from "../../journal/import";
import { parseSecretKeys, secretKeyMatcher } from "../../inspect/redact";
import { exportRunOtlp, pushOtlp } from "../../otel/export";
import { toJsonl } from "../../journal/jsonl";
import type { Journal } from "../../journal/ports";
import type { JournalRecord } from "../../journal/types";
import { common, printJson, printLine, withStore, type CommonOptions } from "../context";

/** A run's records and its sub-agent runs' records (a replay of the run needs the whole tree). */
export async function treeRecords(store: Journal, runId: string, seen = new Set<string>()): Promise<JournalRecord[]> {
  if (seen.has(runId)) return [];
  seen.add(runId);
  const records = await store.history(runId);
  const children: string[] = [];
  for (const record of records) {
    const payload = record.payload as Partial<SignalPayload & ToolResultPayload> | null;
    if (record.kind === "signal" && payload?.type === "subagent" && typeof payload.childRunId === "string") children.push(payload.childRunId);
  }
  for (const child of children) records.push(...(await treeRecords(store, child, seen)));
  return records;
}

export function registerTransfer(program: Command): void {
  common(
    program
      .command("export <run>")
      .description("write a run and its sub-agent runs as JSONL to stdout, or the run as OTLP JSON (--format otlp), or push it to an OTLP collector")
      .option("--format <format>", "jsonl, or otlp: OTLP/JSON traces with GenAI attributes, secrets redacted", "jsonl")
      .option("--otlp-endpoint <url>", "POST the run as OTLP/JSON to this traces endpoint (e.g. http://collector:4318/v1/traces)")
      .option("--header <K=V>", "a header for --otlp-endpoint (repeatable), e.g. Authorization=Bearer …", (value: string, all: string[]) => [...all, value], [] as string[]),
    { json: false },
  ).action(async (runId: string, options: CommonOptions & ExportOptions) => {
    await withStore(options, async (store) => {
      if (!(await store.run(runId))) throw new RunNotFoundError(runId);
      if (options.format !== "jsonl" && options.format !== "otlp") throw new BadInputError(`--format must be jsonl or otlp, not "${options.format}"`);
      if (options.format === "jsonl" && options.otlpEndpoint === undefined) return void process.stdout.write(toJsonl(await treeRecords(store, runId)));
      const request = await exportRunOtlp(store, runId, { isSecret: secretKeyMatcher(parseSecretKeys(process.env.BACKTRACK_REDACT_KEYS)) });
      if (options.otlpEndpoint === undefined) return void process.stdout.write(`${JSON.stringify(request)}\n`);
      const { status } = await pushOtlp(options.otlpEndpoint, request, headersOf(options.header));
      printLine(`pushed run ${runId} to ${options.otlpEndpoint} (${status})`);
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
