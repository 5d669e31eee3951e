import type { Command } from "commander";
import { formatUsd, runPricing } from "../../agent/pricing";
import { pricedRuns } from "../../journal/pricing";
import { RUN_SORTS, RUN_STATUSES, type RunSort, type RunStatus, type SortOrder } from "../../journal/types";
import { CliError, common, printJson, printLine, table, withStore, type CommonOptions } from "../context";
import { prices } from "./show";

interface RunsOptions extends CommonOptions {
  status?: string;
  agent?: string;
  search?: string;
  limit?: string;
  cursor?: string;
  sort?: string;
  order?: string;
}

function sortOf(options: RunsOptions): { sort: RunSort; order: SortOrder } {
  if (options.sort !== undefined && !RUN_SORTS.includes(options.sort as RunSort)) throw new CliError(`unknown sort "${options.sort}"; use one of ${RUN_SORTS.join(", ")}`);
  if (options.order !== undefined && options.order !== "asc" && options.order !== "desc") throw new CliError(`unknown order "${options.order}"; use asc or desc`);
  if (options.order !== undefined && options.sort !== "cost") throw new CliError("--order applies to --sort cost (newest first is the only order by start)");
  return { sort: (options.sort as RunSort | undefined) ?? "started", order: (options.order as SortOrder | undefined) ?? "desc" };
}

export function registerRuns(program: Command): void {
  common(
    program
      .command("runs")
      .description("list runs, newest first or by cost (unknown costs last)")
      .option("--status <status>", `only runs with this status (${RUN_STATUSES.join(", ")})`)
      .option("--agent <name>", "only runs of this agent")
      .option("--search <text>", "run ids and input text containing this")
      .option("--limit <n>", "runs per page (default 50)")
      .option("--cursor <cursor>", "the nextCursor of a previous page (of the same sort)")
      .option("--sort <sort>", `started (newest first, the default) or cost, priced with the config's prices (${RUN_SORTS.join(", ")})`)
      .option("--order <order>", "with --sort cost: desc (dearest first, the default) or asc"),
  ).action(async (options: RunsOptions) => {
    if (options.status && !RUN_STATUSES.includes(options.status as RunStatus)) {
      throw new CliError(`unknown status "${options.status}"; use one of ${RUN_STATUSES.join(", ")}`);
    }
    const limit = options.limit === undefined ? undefined : Number(options.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new CliError("--limit must be a positive integer");
    const order = sortOf(options);
    await withStore(
      options,
      async (store) => {
        const query = { status: options.status as RunStatus | undefined, agent: options.agent, search: options.search, limit, cursor: options.cursor, ...order };
        const page = await pricedRuns(store, query, runPricing(await prices()));
        if (options.json) return printJson(page);
        if (page.runs.length === 0) return printLine("no runs (write some with `backtrack demo`)");
        printLine(
          table([
            ["RUN", "AGENT", "STATUS", "RECORDS", "TURNS", "TOKENS", "COST", "STARTED"],
            ...page.runs.map((run) => [
              run.runId,
              run.agent ?? "",
              run.pause ? `paused (${run.pause.reason})` : run.status,
              String(run.recordCount),
              String(run.modelTurns),
              String(run.inputTokens + run.outputTokens),
              formatUsd(run.costUsd),
              run.startedAt,
            ]),
          ]),
        );
        if (page.costsPending) printLine("\nsome runs are not priced yet and sort as unknown: list again in a moment");
        const again = order.sort === "cost" ? ` --sort cost --order ${order.order}` : "";
        if (page.nextCursor) printLine(`\nmore: backtrack runs${again} --cursor ${page.nextCursor}`);
      },
      { readOnly: true },
    );
  });
}
