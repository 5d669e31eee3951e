/**
 * `backtrack delete <run> [--yes]`: removes a run, its sub-agent runs and their leases, and says
 * what it removed. Without --yes it asks on a terminal and refuses in a pipe (exit 2): a script
 * must say --yes to lose data.
 */
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { RunNotFoundError } from "../../journal/errors";
import type { DeleteResult } from "../../journal/ports";
import { CliError, common, printJson, printLine, withStore, type CommonOptions } from "../context";

interface DeleteOptions extends CommonOptions {
  yes?: boolean;
}

/** "deleted 3 runs (refund-900, …), 41 records, 1 lease". */
export function deletedSentence(deleted: DeleteResult): string {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  return `deleted ${plural(deleted.runs.length, "run")} (${deleted.runs.join(", ")}), ${plural(deleted.records, "record")}, ${plural(deleted.leases, "lease")}`;
}

async function confirmed(runId: string, subRuns: number): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const what = subRuns > 0 ? `run "${runId}" and ${subRuns} sub-agent run(s)` : `run "${runId}"`;
    const answer = await prompt.question(`delete ${what} and all ${subRuns > 0 ? "their" : "its"} records? This cannot be undone. [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

export function registerDelete(program: Command): void {
  common(
    program
      .command("delete <run>")
      .description("delete a run, its sub-agent runs and their leases (asks first on a terminal; --yes in scripts)")
      .option("--yes", "do not ask (required when stdin is not a terminal)"),
  ).action(async (runId: string, options: DeleteOptions) => {
    if (!options.yes && !process.stdin.isTTY) throw new CliError(`refusing to delete "${runId}" without --yes (stdin is not a terminal to ask on)`);
    await withStore(options, async (store) => {
      if (!(await store.run(runId))) throw new RunNotFoundError(runId);
      if (!options.yes) {
        const { runs } = await store.runs({ parentRunId: runId, limit: 100 });
        if (!(await confirmed(runId, runs.length))) throw new CliError(`nothing deleted: "${runId}" is still there`);
      }
      const deleted = await store.deleteRun(runId);
      if (options.json) printJson({ deleted });
      else printLine(deletedSentence(deleted));
    });
  });
}
