/**
 * Gives the test run its own PostgreSQL database on the server (DATABASE_URL's server, or the
 * local one at 127.0.0.1:5432), and drops it at the end. An unreachable server fails the run:
 * server tests never skip. Also makes the two templates, each created and migrated once: one PGlite
 * folder (initdb and the migrations cost seconds a folder), which tests copy for an empty embedded
 * database (embeddedFolder() in databases.ts), and one server database, which
 * freshServerDatabase() clones with CREATE DATABASE … TEMPLATE (a second a database less than
 * migrating each). Nothing connects to the server template after this, as TEMPLATE requires.
 * First it builds the projection pool's worker (dist-workers/), which the server's code runs, and
 * the bundled CLI that spawned-CLI tests run (scripts/build-test-cli.mjs).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { openStore } from "@/lib/store";

const DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres";

export default async function setup(project: TestProject) {
  // The projection pool's worker, built from this checkout's lib/pool (the server's tests use it).
  execFileSync(process.execPath, ["scripts/build-workers.mjs"], { stdio: "inherit" });
  // The bundled CLI that runCli (processes.ts) spawns: a start in half the time of tsx's.
  execFileSync(process.execPath, ["scripts/build-test-cli.mjs"], { stdio: "inherit" });
  const base = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : DEFAULT_SERVER;
  const name = `backtrack_test_${process.pid}_${Date.now().toString(36)}`;
  const serverTemplate = `${name}_template`;
  const admin = postgres(base, { max: 1, onnotice: () => undefined, connect_timeout: 10 });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    await admin.end();
    throw new Error(`the test PostgreSQL server at ${base.replace(/:[^:@/]*@/, ":***@")} is unreachable: ${(error as Error).message}`);
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  project.provide("serverUrl", url.toString());
  project.provide("serverAdminUrl", base);
  await admin.unsafe(`create database ${serverTemplate}`);
  const templateUrl = new URL(base);
  templateUrl.pathname = `/${serverTemplate}`;
  await (await openStore({ url: templateUrl.toString() })).close();
  project.provide("serverTemplate", serverTemplate);
  const template = mkdtempSync(join(tmpdir(), "backtrack-template-"));
  await (await openStore({ url: `pglite:${template}` })).close();
  project.provide("embeddedTemplate", template);
  return async () => {
    rmSync(template, { recursive: true, force: true });
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
