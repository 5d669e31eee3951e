/**
 * The API reference is whole: every method each route handler under app/api exports is a row of
 * docs/http-api.md, written `` `METHOD /api/path `` with the folder's `[param]` as `{param}`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");

function routeFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? routeFiles(path) : name === "route.ts" ? [path] : [];
  });
}

/** `METHOD /api/path` for each method a route file exports. */
function routeCalls(file: string): string[] {
  const path = `/${relative(join(ROOT, "app"), join(file, "..")).split("\\").join("/")}`.replace(/\[(\w+)\]/g, "{$1}");
  const methods = [...readFileSync(file, "utf8").matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((match) => match[1]);
  return methods.map((method) => `${method} ${path}`);
}

describe("the API reference", () => {
  it("documents every route the server has", () => {
    const reference = readFileSync(join(ROOT, "docs/http-api.md"), "utf8");
    const calls = routeFiles(join(ROOT, "app/api")).flatMap(routeCalls);
    expect(calls.length).toBeGreaterThan(30);
    // A call is named at the start of a code span and ends there or where its query or body starts.
    const missing = calls.filter((call) => !new RegExp(`\`${call.replace(/[{}?.*+[\]()|^$\\]/g, "\\$&")}(?:[\`?\\[ ])`).test(reference));
    expect(missing).toEqual([]);
  });
});
