/**
 * `npm run bench [-- name…]`: runs the benchmarks (all, or those named) and prints one JSON
 * object per benchmark on stdout. Progress goes to stderr.
 */
import { journalBenchmarks } from "./journal";
import { sessionBenchmarks } from "./sessions";
import { recoveryBenchmarks } from "./recovery";
import { regressionBenchmarks } from "./regression";
import { runsListBenchmarks } from "./runs-list";
import { uiBenchmarks } from "./ui";
import { apiLoadBenchmarks } from "./api-load";
import { aiSdkBenchmarks } from "./ai-sdk";
import { searchBenchmarks } from "./search";
import { suiteBenchmarks } from "./suites";
import { jobBenchmarks } from "./jobs";
import { otelBenchmarks } from "./otel";
import { playgroundBenchmarks } from "./playground";
import { forkBenchmarks } from "./fork";
import { appendCostBenchmarks } from "./append-costs";
import { concurrentBenchmarks } from "./concurrent";
import { scaleBenchmarks } from "./scale";
import { round, withServerDatabases, type Benchmark } from "./harness";

const ALL: Benchmark[] = [
  ...journalBenchmarks,
  ...sessionBenchmarks,
  ...recoveryBenchmarks,
  ...regressionBenchmarks,
  ...runsListBenchmarks,
  ...uiBenchmarks,
  ...apiLoadBenchmarks,
  ...aiSdkBenchmarks,
  ...searchBenchmarks,
  ...suiteBenchmarks,
  ...jobBenchmarks,
  ...otelBenchmarks,
  ...playgroundBenchmarks,
  ...forkBenchmarks,
  ...appendCostBenchmarks,
  ...concurrentBenchmarks,
];

/** Slow ones (minutes, gigabytes): run only when named; `scale` names them all. */
const OPT_IN: Benchmark[] = [...scaleBenchmarks];

const wanted = process.argv.slice(2).flatMap((name) => (name === "scale" ? scaleBenchmarks.map((benchmark) => benchmark.name) : [name]));
const chosen = wanted.length === 0 ? ALL : [...ALL, ...OPT_IN].filter((benchmark) => wanted.includes(benchmark.name));
if (chosen.length === 0) {
  process.stderr.write(`no benchmark named ${wanted.join(", ")}; known: ${[...ALL, ...OPT_IN].map((benchmark) => benchmark.name).join(", ")}\n`);
  process.exit(2);
}

await withServerDatabases(async (context) => {
  for (const benchmark of chosen) {
    context.log(`bench: ${benchmark.name}…`);
    const figures = await benchmark.run(context);
    const rounded = Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, typeof value === "number" ? round(value) : value]));
    process.stdout.write(`${JSON.stringify({ benchmark: benchmark.name, ...rounded })}\n`);
  }
});
