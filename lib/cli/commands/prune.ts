/**
 * `backtrack prune --older-than 30d [--status complete,failed] [--agent A] [--dry-run]`: deletes
 * runs (with their sub-agent runs, records and leases) and sessions idle for longer than the
 * duration, in batches, and says what it removed. Pinned runs and the sources of forks are kept
 * unless --include-kept. A bad duration or status is bad input (exit 2), checked before the
 * database is opened, so nothing is deleted.
 */
import type { Command } from "commander";
import { RUN_STATUSES } from "../../journal/types";
import { parseDuration } from "../../retention/duration";
import { pruneRuns, type PruneResult } from "../../retention/prune";
import { CliError, common, printJson, printLine, withStore, type CommonOptions } from "../context";

interface PruneCliOptions extends CommonOptions {
  olderThan: string;
  status?: string;
  agent?: string;
  dryRun?: boolean;
  includeKept?: boolean;
  batchSize?: string;
}

function plural(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

/** "pruned 3 runs (a, b, c), 41 records, 1 lease, 2 sessions (idle since before …)". */
export function prunedSentence(result: PruneResult): string {
  const more = result.runs - result.runIds.length;
  const shown = result.runIds.length > 0 ? ` (${result.runIds.join(", ")}${more > 0 ? `, and ${more.toLocaleString("en-US")} more` : ""})` : "";
  const verb = result.dryRun ? "would prune" : "pruned";
  return `${verb} ${plural(result.runs, "run")}${shown}, ${plural(result.records, "record")}, ${plural(result.leases, "lease")}, ${plural(result.sessions, "session")} (idle since before ${result.cutoff})`;
}

function parseStatuses(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const statuses = text
    .split(",")
    .map((status) => status.trim())
    .filter(Boolean);
  const unknown = statuses.filter((status) => !(RUN_STATUSES as readonly string[]).includes(status));
  if (statuses.length === 0 || unknown.length > 0) throw new CliError(`--status takes a comma-separated list of ${RUN_STATUSES.join(", ")}; got "${text}"`);
  return statuses;
}

function parseBatchSize(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const size = Number(text);
  if (!Number.isInteger(size) || size < 1 || size > 100_000) throw new CliError(`--batch-size takes a whole number from 1 to 100000; got "${text}"`);
  return size;
}

export function registerPrune(program: Command): void {
  common(
    program
      .command("prune")
      .description("delete runs and sessions idle for longer than --older-than, in batches (pinned runs and fork sources are kept)")
      .requiredOption("--older-than <duration>", "idle for longer than this: 30d, 12h, 90m, 2w, 45s")
      .option("--status <list>", "only runs with these statuses, comma-separated (running, paused, complete, failed)")
      .option("--agent <name>", "only runs of this agent")
      .option("--dry-run", "say what would be pruned; delete nothing")
      .option("--include-kept", "also prune pinned runs and the sources of forks")
      .option("--batch-size <n>", "root runs deleted per statement (default 500)"),
  ).action(async (options: PruneCliOptions) => {
    const olderThan = parseDuration(options.olderThan);
    const statuses = parseStatuses(options.status);
    const batchSize = parseBatchSize(options.batchSize);
    await withStore(options, async (store) => {
      const result = await pruneRuns(store, { olderThan, statuses, agent: options.agent, dryRun: options.dryRun, includeKept: options.includeKept, batchSize });
      if (options.json) printJson({ pruned: result });
      else printLine(prunedSentence(result));
    });
  });
}
