/**
 * The layer rules of docs/architecture.md, checked by `npm run lint` (`depcruise`). Each lib/ folder
 * may import only the folders listed for it; the lists are strict, so no cycle can form between
 * folders, and a rule says so again for any cycle that leaves a folder; the last forbids cycles
 * between files as well. Type-only imports count (tsPreCompilationDeps): a type a lower layer
 * needs belongs in that layer.
 *
 * Levels, lowest first (a folder imports its own level's listed peers and the levels below):
 *   journal                                   nothing of ours
 *   agent, store                              journal
 *   inspect, recovery, ai-sdk                 agent, journal
 *   sessions, memory, config, otel            journal, agent, store, inspect, recovery
 *   regression                                the above, and memory and config (a replay's memory and models)
 *   pool                                      journal, agent, store, inspect, recovery, otel (what its workers run)
 *   fork, suites, playground                  all of the above, regression included (suites and playground also fork)
 *   jobs, demo                                anything in lib but the CLI
 *   cli                                       anything in lib
 *   app, components                           lib (and each other), never the CLI
 * otel, fork and suites are reserved for the folders ARCHITECTURE §7 plans, so they land in place.
 */
const BELOW_SERVICES = ["journal", "agent", "store", "inspect", "recovery"];
const SERVICES = [...BELOW_SERVICES, "sessions", "memory", "config", "otel"];

/** `lib/<folder>/` may import nothing in lib/ outside its own folder and `allowed`. */
function layer(folder, allowed, comment) {
  const own = [folder, ...allowed].join("|");
  return {
    name: `layer-${folder}`,
    comment,
    severity: "error",
    from: { path: `^lib/${folder}/` },
    to: { path: "^lib/", pathNot: `^lib/(${own})/` },
  };
}

module.exports = {
  forbidden: [
    layer("journal", [], "journal is the bottom layer: record types, ports, MemStore, errors; it imports nothing of ours"),
    layer("agent", ["journal"], "agent (the loop, tools, models, pauses) stands on the journal alone"),
    layer("store", ["journal"], "store implements the journal's ports over PostgreSQL; it knows no agent"),
    layer("inspect", ["agent", "journal"], "inspect holds pure projections of a history"),
    layer("recovery", ["agent", "journal"], "recovery re-drives runs through the agent and the journal's ports"),
    layer("ai-sdk", ["agent", "journal"], "ai-sdk journals AI SDK apps (middleware, tools) in the native loop's record names"),
    layer("sessions", BELOW_SERVICES, "sessions: the layers below"),
    layer("memory", BELOW_SERVICES, "memory (AgentMemory implementations): the layers below; the port is in agent"),
    layer("config", BELOW_SERVICES, "config: the layers below; the registry is passed in, never the demo's"),
    layer("otel", BELOW_SERVICES, "otel (reserved): OTLP mapping onto journal records, framework-free"),
    layer("retention", BELOW_SERVICES, "retention (prune old runs and sessions): the layers below, the store's batches included"),
    layer("regression", [...BELOW_SERVICES, "memory", "config"], "regression: the layers below, with memory (a replay's memory plan) and config"),
    layer(
      "pool",
      [...BELOW_SERVICES, "otel"],
      "pool (worker threads for heavy projections and OTLP decoding): the projections and OTLP mapping it runs, the journal's ports; never the store",
    ),
    layer("fork", [...SERVICES, "regression"], "fork (reserved): built on replay and the layers below"),
    layer("suites", [...SERVICES, "regression", "fork"], "suites (reserved): pinned runs checked by replay"),
    layer("playground", [...SERVICES, "regression", "fork"], "playground: one model turn re-run N times, built on the fork path"),
    {
      name: "jobs-demo-not-cli",
      comment: "jobs and demo may use anything in lib but the command line, which sits on top of them",
      severity: "error",
      from: { path: "^lib/(jobs|demo)/" },
      to: { path: "^lib/cli/" },
    },
    {
      name: "lib-framework-free",
      comment: "lib/ never imports the app, its components, Next.js or React (see also eslint.config.mjs)",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: ["^(app|components)/", "node_modules/(next|react|react-dom|server-only)/"] },
    },
    {
      name: "main-entry-no-demo",
      comment: "the package entry (lib/index.ts) holds no demo code and no CLI: backtrack/demo holds the demo",
      severity: "error",
      from: { path: "^lib/(index|testing)\\.ts$" },
      to: { path: "^lib/(demo|cli)/" },
    },
    {
      name: "entries-no-view-models",
      comment: "page-only view models stay off the public surface: app/ imports them by path",
      severity: "error",
      from: { path: "^lib/(index|testing)\\.ts$|^lib/demo/index\\.ts$" },
      to: { path: "^lib/inspect/(diff-view|packed-diff)\\.ts$" },
    },
    {
      name: "ui-not-cli",
      comment: "app and components read lib's projections; the command line is a sibling, not a library",
      severity: "error",
      from: { path: "^(app|components)/" },
      to: { path: "^lib/cli/" },
    },
    {
      name: "no-folder-cycles",
      comment: "no cycle may leave its lib/ folder (cycles inside one folder are the folder's own business)",
      severity: "error",
      from: { path: "^lib/([^/]+)/" },
      to: { circular: true, via: { pathNot: "^lib/$1/" } },
    },
    {
      name: "no-file-cycles",
      comment: "no module imports itself round a cycle, types included: none does today, so a new one is a choice to argue",
      severity: "error",
      from: { path: "^(lib|app|components)/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(\\.next|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mts", ".js", ".mjs"] },
  },
};
