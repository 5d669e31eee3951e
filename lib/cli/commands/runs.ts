import type { Command } from "commander";
import { RUN_STATUSES, type RunStatus } from "../../journal/types";
import { CliError, common, printJson, printLine, table, withStore, type CommonOptions } from "../context";

interface RunsOptions extends CommonOptions {
  status?: string;
  agent?: string;
  search?: string;
  limit?: string;
  cursor?: string;
}

export function registerRuns(program: Command): void {
  common(
    program
      .command("runs")
      .description("list runs, newest first")
      .option("--status <status>", `only runs with this status (${RUN_STATUSES.join(", ")})`)
      .option("--agent <name>", "only runs of this agent")
      .option("--search <text>", "run ids and input text containing this")
      .option("--limit <n>", "runs per page (default 50)")
      .option("--cursor <cursor>", "the nextCursor of a previous page"),
  ).action(async (options: RunsOptions) => {
    if (options.status && !RUN_STATUSES.includes(options.status as RunStatus)) {
      throw new CliError(`unknown status "${options.status}"; use one of ${RUN_STATUSES.join(", ")}`);
    }
    const limit = options.limit === undefined ? undefined : Number(options.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new CliError("--limit must be a positive integer");
    await withStore(
      options,
      async (store) => {
        const page = await store.runs({
          status: options.status as RunStatus | undefined,
          agent: options.agent,
          search: options.search,
          limit,
          cursor: options.cursor,
        });
        if (options.json) return printJson(page);
        if (page.runs.length === 0) return printLine("no runs (write some with `backtrack demo`)");
        printLine(
          table([
            ["RUN", "AGENT", "STATUS", "RECORDS", "TURNS", "TOKENS", "STARTED"],
            ...page.runs.map((run) => [
              run.runId,
              run.agent ?? "",
              run.pause ? `paused (${run.pause.reason})` : run.status,
              String(run.recordCount),
              String(run.modelTurns),
              String(run.inputTokens + run.outputTokens),
              run.startedAt,
            ]),
          ]),
        );
        if (page.nextCursor) printLine(`\nmore: backtrack runs --cursor ${page.nextCursor}`);
      },
      { readOnly: true },
    );
  });
}
