/**
 * Gives the test run its own PostgreSQL database on the server (DATABASE_URL's server, or the
 * local one at 127.0.0.1:5432), and drops it at the end. An unreachable server fails the run:
 * server tests never skip. Also makes the two templates, each created and migrated once: one PGlite
 * folder (initdb and the migrations cost seconds a folder), which tests copy for an empty embedded
 * database (embeddedFolder() in databases.ts), and one server database, which
 * freshServerDatabase() clones with CREATE DATABASE … TEMPLATE (a second a database less than
 * migrating each). Nothing connects to the server template after this, as TEMPLATE requires.
 * It also builds the projection pool's worker (dist-workers/), which the server's code runs, and
 * the bundles of the CLI and the child scripts that tests spawn (scripts/build-test-cli.mjs). The
 * builds run in their own processes while this one makes the templates: the run waits for the
 * slowest, not for their sum. The soak and the fleet (tests/helpers/global-setup-server.ts) need
 * the server's databases only: they skip the embedded template, an initdb of several seconds.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { openStore } from "@/lib/store";

const DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres";

/** Runs a build script of this checkout in its own node process; rejects if it fails. */
function build(script: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script], { stdio: "inherit" });
    child.on("error", fail);
    child.on("exit", (code, signal) => (code === 0 ? done() : fail(new Error(`${script} failed (${signal ?? `exit ${code}`})`))));
  });
}

export default function setup(project: TestProject) {
  return setupDatabases(project, { embedded: true });
}

export async function setupDatabases(project: TestProject, options: { embedded: boolean }) {
  const builds = Promise.all([
    // The projection pool's worker, built from this checkout's lib/pool (the server's tests use it).
    build("scripts/build-workers.mjs"),
    // The bundled CLI that runCli (processes.ts) spawns, and the child scripts startTs spawns: a start in a third of tsx's time.
    build("scripts/build-test-cli.mjs"),
  ]);
  // Awaited below, with the templates; a failure is not left unhandled meanwhile.
  builds.catch(() => undefined);
  const base = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : DEFAULT_SERVER;
  const name = `backtrack_test_${process.pid}_${Date.now().toString(36)}`;
  const serverTemplate = `${name}_template`;
  const admin = postgres(base, { max: 1, onnotice: () => undefined, connect_timeout: 10 });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    await admin.end();
    await builds.catch(() => undefined);
    throw new Error(`the test PostgreSQL server at ${base.replace(/:[^:@/]*@/, ":***@")} is unreachable: ${(error as Error).message}`);
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  project.provide("serverUrl", url.toString());
  project.provide("serverAdminUrl", base);
  const templateUrl = new URL(base);
  templateUrl.pathname = `/${serverTemplate}`;
  const migrateServerTemplate = async () => {
    await admin.unsafe(`create database ${serverTemplate}`);
    await (await openStore({ url: templateUrl.toString() })).close();
  };
  const template = options.embedded ? mkdtempSync(join(tmpdir(), "backtrack-template-")) : undefined;
  const migrateEmbeddedTemplate = async () => {
    if (template) await (await openStore({ url: `pglite:${template}` })).close();
  };
  // PGlite's initdb and migrations run on this thread, the server's on the server, the builds in theirs: at once.
  await Promise.all([builds, migrateServerTemplate(), migrateEmbeddedTemplate()]);
  project.provide("serverTemplate", serverTemplate);
  if (template) project.provide("embeddedTemplate", template);
  return async () => {
    if (template) rmSync(template, { recursive: true, force: true });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`drop database if exists ${serverTemplate} with (force)`);
    await admin.end();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    serverUrl: string;
    serverAdminUrl: string;
    /** A migrated database on the server, closed: clone it with CREATE DATABASE … TEMPLATE, never connect to it. */
    serverTemplate: string;
    /** An embedded database folder, migrated and closed: copy it, never open it. */
    embeddedTemplate: string;
  }
}
