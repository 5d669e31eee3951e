#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so that a clone needs no build step for the command line.
// run() exits only after stdout and stderr have drained: a pipe gets every byte.
import { register } from "tsx/esm/api";

register();
const { run } = await import("../lib/cli/main.ts");
await run(process.argv.slice(2));
