/**
 * Gives the test run its own PostgreSQL database on the server (DATABASE_URL's server, or the
 * local one at 127.0.0.1:5432), and drops it at the end. An unreachable server fails the run:
 * server tests never skip.
 */
import postgres from "postgres";
import type { TestProject } from "vitest/node";

const DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres";

export default async function setup(project: TestProject) {
  const base = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : DEFAULT_SERVER;
  const name = `backtrack_test_${process.pid}_${Date.now().toString(36)}`;
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
  return async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    serverUrl: string;
    serverAdminUrl: string;
  }
}
