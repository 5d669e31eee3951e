import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { findConfig } from "../../config/file";
import { resolveDatabase } from "../../store/connection";
import { CliError, printLine } from "../context";

interface StartOptions {
  port: string;
  host: string;
  db?: string;
  build?: boolean;
  config?: string;
  /** false with --no-worker: serve the inspector only; `backtrack worker` processes run the jobs. */
  worker: boolean;
}

/** The folder holding package.json and .next (the app is served from there). */
function appRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, "next.config.ts"))) {
    const parent = dirname(folder);
    if (parent === folder) throw new CliError("cannot find the inspector app (next.config.ts)");
    folder = parent;
  }
  return folder;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env, stdio: "inherit" });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    child.on("error", fail);
    child.on("exit", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      done(code ?? (signal ? 0 : 1));
    });
  });
}

export function registerStart(program: Command): void {
  program
    .command("start")
    .description("serve the inspector (builds it first when needed); writes the demo runs into an empty embedded database")
    .option("--port <port>", "port", "3000")
    .option("--host <host>", "address to listen on (127.0.0.1: this machine only); requests must name it, a loopback name or one in BACKTRACK_ALLOWED_HOSTS", "127.0.0.1")
    .option("--db <url>", "postgres://… or pglite:PATH (default: DATABASE_URL, then .backtrack/)")
    .option("--build", "build again even if a build exists")
    .option("--no-worker", "serve the inspector only: jobs it queues (replays, resumes, recovery) wait for a `backtrack worker` on the same database")
    .option(
      "--config <path>",
      "backtrack.config.ts with your models and agents, for replays and recovery from the inspector (default: BACKTRACK_CONFIG, then backtrack.config.* here)",
    )
    .action(async (options: StartOptions) => {
      const root = appRoot();
      const target = resolveDatabase(options.db);
      // The server resolves relative folders against its own cwd (the app root): pass an absolute one.
      const databaseUrl = target.kind === "server" ? target.url : `pglite:${resolve(target.folder)}`;
      const nextBin = createRequire(join(root, "package.json")).resolve("next/dist/bin/next");
      // The server runs in the app's folder: hand it the config found here, as an absolute path.
      const config = findConfig(options.config);
      // BACKTRACK_BOUND_HOST: the server answers requests naming this host (and loopback, and
      // BACKTRACK_ALLOWED_HOSTS); any other Host header is refused (app/_server/hosts.ts).
      const env = {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        DATABASE_URL: databaseUrl,
        BACKTRACK_BOUND_HOST: options.host,
        ...(config ? { BACKTRACK_CONFIG: config } : {}),
        ...(options.worker ? {} : { BACKTRACK_NO_WORKER: "1" }),
      };
      if (options.build || !existsSync(join(root, ".next", "BUILD_ID"))) {
        printLine("building the inspector (first start only, about a minute)…");
        const code = await run(process.execPath, [nextBin, "build"], root, env);
        if (code !== 0) throw new CliError(`the build failed (exit ${code})`, 1);
      }
      // The projection pool's worker (lib/pool): `npm run build` makes it; a build by `next build` alone does not.
      if (options.build || !existsSync(join(root, "dist-workers", "projection.mjs"))) {
        const code = await run(process.execPath, [join(root, "scripts", "build-workers.mjs")], root, env);
        if (code !== 0) throw new CliError(`the worker build failed (exit ${code})`, 1);
      }
      printLine(
        `Backtrack inspector on http://${options.host}:${options.port} (database: ${target.kind === "server" ? "server" : databaseUrl}${config ? `; config: ${config}` : ""}${options.worker ? "" : "; no worker"})`,
      );
      const code = await run(process.execPath, [nextBin, "start", "-H", options.host, "-p", options.port], root, env);
      process.exitCode = code;
    });
}
