/**
 * Regression suites on the command line:
 *   backtrack pin <run> [--suite NAME] [--note TEXT] [--by NAME]   and   unpin <run> [--suite NAME]
 *   backtrack test [--suite NAME] [--model ID | --recorded] [--strip-memory] [--concurrency N]
 *                  [--scorer NAME] [--junit FILE] [--markdown FILE] [--base-url URL] [--json]
 *   backtrack suite export NAME > suite.jsonl    and    backtrack suite import FILE [--as NAME]
 * `test` exits 0 when every pinned run passes, 1 when any changed, failed or errored, 2 on bad
 * input. Its progress is a bar on stderr when stdout is a terminal, else one line per run.
 */
import { createReadStream } from "node:fs";
import { stat, writeFile } from "node:fs/promises";
import { userInfo } from "node:os";
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { loadRegistry } from "../../config/file";
import { demoRegistry } from "../../demo/registry";
import { BadInputError } from "../../journal/errors";
import { RECORDED_MODEL } from "../../regression/models";
import { DEFAULT_SUITE, pinRun, suiteStore, unpinRun } from "../../suites/pins";
import { batchMarkdown, diffLink, junitXml, resultSummary } from "../../suites/report";
import { DEFAULT_CONCURRENCY, runSuite } from "../../suites/run-suite";
import { exportSuite, importSuite } from "../../suites/transfer";
import type { BatchResult } from "../../suites/types";
import { CliError, common, EXIT_CHECK_FAILED, printJson, printLine, withStore, type CommonOptions } from "../context";
import { progressBar } from "../progress";

interface PinOptions extends CommonOptions {
  suite?: string;
  note?: string;
  by?: string;
}

interface TestOptions extends CommonOptions {
  suite?: string;
  model?: string;
  recorded?: boolean;
  stripMemory?: boolean;
  concurrency?: string;
  scorer?: string;
  junit?: string;
  markdown?: string;
  baseUrl?: string;
  config?: string;
}

const CONFIG_OPTION = ["--config <path>", "backtrack.config.ts with your agents, models and scorers (default: BACKTRACK_CONFIG, then backtrack.config.* here)"] as const;

function osUser(): string {
  try {
    return userInfo().username || "cli";
  } catch {
    return "cli";
  }
}

function checkBaseUrl(text: string | undefined): string {
  if (text === undefined) return "";
  try {
    const url = new URL(text);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    throw new CliError(`--base-url must be an http(s) URL, got "${text}"`);
  }
  return text;
}

function concurrencyOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_CONCURRENCY;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isInteger(value)) throw new CliError(`--concurrency must be a whole number, got "${text}"`);
  return value;
}

function resultLine(result: BatchResult, baseUrl: string): string {
  const link = diffLink(result, baseUrl);
  const head = `${result.status.toUpperCase().padEnd(7)} ${result.runId}`;
  return result.status === "pass" ? head : `${head}: ${resultSummary(result)}${link ? ` (${link})` : ""}`;
}

function registerPins(program: Command): void {
  common(
    program
      .command("pin <run>")
      .description("pin a run as a regression test in a suite (`backtrack test` replays it)")
      .option("--suite <name>", `the suite (default "${DEFAULT_SUITE}")`)
      .option("--note <text>", "why this run is worth keeping")
      .option("--by <name>", "who pins it (default: the OS user)"),
  ).action(async (runId: string, options: PinOptions) => {
    await withStore(options, async (store) => {
      const { created, pin } = await pinRun(store, suiteStore(store), { suite: options.suite, runId, pinnedBy: options.by ?? osUser(), note: options.note });
      if (options.json) return printJson({ created, pin });
      printLine(created ? `pinned ${runId} in suite ${pin.suite}` : `${runId} was already pinned in suite ${pin.suite} (by ${pin.pinnedBy}, ${pin.pinnedAt})`);
    });
  });

  common(program.command("unpin <run>").description("remove a run from a suite").option("--suite <name>", `the suite (default "${DEFAULT_SUITE}")`), { json: false }).action(
    async (runId: string, options: PinOptions) => {
      await withStore(options, async (store) => {
        await unpinRun(suiteStore(store), options.suite ?? DEFAULT_SUITE, runId);
        printLine(`unpinned ${runId} from suite ${options.suite ?? DEFAULT_SUITE}`);
      });
    },
  );
}

async function test(options: TestOptions): Promise<void> {
  if (options.model !== undefined && options.recorded) throw new CliError("--model and --recorded do not go together: pick one");
  const concurrency = concurrencyOf(options.concurrency);
  const baseUrl = checkBaseUrl(options.baseUrl);
  const registry = await loadRegistry(demoRegistry(), options.config);
  const onTerminal = process.stdout.isTTY === true && !options.json;
  await withStore(options, async (store) => {
    const bar = onTerminal ? progressBar(process.stderr) : undefined;
    const report = await runSuite(
      {
        journal: store,
        suites: suiteStore(store),
        registry,
        concurrency,
        onResult: (result, done, total) => {
          if (bar) bar.update(done, total, result.status === "pass" ? undefined : resultLine(result, baseUrl));
          else if (!options.json) printLine(resultLine(result, baseUrl));
        },
      },
      { suite: options.suite ?? DEFAULT_SUITE, model: options.model ?? RECORDED_MODEL, stripMemory: options.stripMemory, scorer: options.scorer },
    ).finally(() => bar?.end());
    const { batch, results, counts } = report;
    if (options.junit) await writeFile(options.junit, junitXml(batch, results, counts, baseUrl));
    if (options.markdown) await writeFile(options.markdown, batchMarkdown(batch, results, counts, baseUrl));
    if (!report.ok) process.exitCode = EXIT_CHECK_FAILED;
    if (options.json) return printJson({ ...report, results: results.map((result) => ({ ...result, diffLink: diffLink(result, baseUrl) })) });
    printLine(
      `suite ${batch.suite} under ${batch.model}${batch.stripMemory ? " (memory stripped)" : ""}: ${counts.pass} passed, ${counts.changed} changed, ${counts.failed} failed, ${counts.error} errors (batch ${batch.batchId})`,
    );
  });
}

function registerTest(program: Command): void {
  common(
    program
      .command("test")
      .description("replay every pinned run of a suite, diff each against its pin and score it; exit 1 when any did not pass")
      .option("--suite <name>", `the suite (default "${DEFAULT_SUITE}")`)
      .option("--model <id>", "replay under this model: demo/v1, demo/v2, or one from backtrack.config.ts")
      .option("--recorded", "replay against each run's recorded outputs (the default)")
      .option("--strip-memory", "memory off: keep only each turn's own incoming messages")
      .option("--concurrency <n>", `replays at once (default ${DEFAULT_CONCURRENCY})`)
      .option("--scorer <name>", "a scorer from backtrack.config.ts (default same-decisions: the same decisions pass)")
      .option("--junit <file>", "write JUnit XML: one test case per pinned run, a failure's message is its first divergence and /diff link")
      .option("--markdown <file>", "write a Markdown summary for a pull-request comment")
      .option("--base-url <url>", "the inspector's address, to make the links absolute")
      .option(...CONFIG_OPTION),
  ).action(test);
}

function registerTransfer(program: Command): void {
  const suite = program.command("suite").description("move a suite and its runs between databases");
  common(suite.command("export <name>").description("write the suite (its pins, then every pinned run's records) as JSONL to stdout"), { json: false }).action(
    async (name: string, options: CommonOptions) => {
      await withStore(options, async (store) => {
        for await (const chunk of exportSuite(store, suiteStore(store), name)) process.stdout.write(chunk);
      });
    },
  );
  common(
    suite
      .command("import <file>")
      .description("import a suite file (all or nothing: its runs and pins, or neither)")
      .option("--as <name>", "import the pins under another suite name"),
  ).action(async (file: string, options: CommonOptions & { as?: string }) => {
    try {
      if (!(await stat(file)).isFile()) throw new Error("not a regular file");
    } catch (error) {
      throw new BadInputError(`cannot read ${file}: ${(error as Error).message}`, { cause: error });
    }
    await withStore(options, async (store) => {
      const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Number.POSITIVE_INFINITY });
      const result = await importSuite(store, suiteStore(store), lines, { rename: options.as });
      if (options.json) return printJson(result);
      printLine(`imported suite ${result.suite}: ${result.pins} pin(s), ${result.runs.length} run(s), ${result.imported} records`);
    });
  });
}

export function registerSuites(program: Command): void {
  registerPins(program);
  registerTest(program);
  registerTransfer(program);
}
