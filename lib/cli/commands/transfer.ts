import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import type { SignalPayload, ToolResultPayload } from "../../agent/payloads";
import { BadInputError, RunNotFoundError } from "../../journal/errors";
import { importRuns } from "../../journal/import";
import { parseJsonl, toJsonl } from "../../journal/jsonl";
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

  common(program.command("import <file>").description("import runs from a JSONL file (all or nothing: a malformed file imports nothing)")).action(
    async (file: string, options: CommonOptions) => {
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch (error) {
        throw new BadInputError(`cannot read ${file}: ${(error as Error).message}`, { cause: error });
      }
      // Parsed before the database opens: a malformed file fails fast.
      parseJsonl(text);
      await withStore(options, async (store) => {
        const result = await importRuns(store, text);
        if (options.json) printJson(result);
        else printLine(`imported ${result.imported} records in ${result.runs.length} run(s): ${result.runs.join(", ")}`);
      });
    },
  );
}
