import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Command } from "commander";
import type { SignalPayload, ToolResultPayload } from "../../agent/payloads";
import { BadInputError, RunNotFoundError } from "../../journal/errors";
import { importLines, type ImportProgress } from "../../journal/import";
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
  common(program.command("export <run>").description("write a run and its sub-agent runs as JSONL to stdout"), { json: false }).action(
    async (runId: string, options: CommonOptions) => {
      await withStore(options, async (store) => {
        if (!(await store.run(runId))) throw new RunNotFoundError(runId);
        process.stdout.write(toJsonl(await treeRecords(store, runId)));
      });
    },
  );

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
