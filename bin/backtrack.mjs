#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so that a clone needs no build step for the command line.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../lib/cli/main.ts");
const code = await main(process.argv.slice(2));
process.exit(code);
