import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import { defineConfig, globalIgnores } from "eslint/config";
import tseslint from "typescript-eslint";

/** lib/ is the framework-free journal: it may not import Next.js, React, the app or its components. */
const frameworkFree = {
  files: ["lib/**/*.ts", "bin/**/*.mjs", "bench/**/*.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["next", "next/*"], message: "lib/ is framework-free: no Next.js." },
          { group: ["react", "react/*", "react-dom", "react-dom/*"], message: "lib/ is framework-free: no React." },
          { group: ["server-only"], message: "server-only throws outside Next.js: keep it in app/." },
          { group: ["@/app/*", "@/components/*", "**/app/*", "**/components/*"], message: "lib/ may not import the app or its components." },
        ],
      },
    ],
  },
};

/**
 * Type-aware rules (they read the TypeScript program through the project service): a promise
 * nobody awaits or handles, a promise where a void callback is expected (an event handler, a
 * forEach), an await of a value that is no promise, a thrown or rejected value that is no Error,
 * and a switch over a union that misses a member (a default clause does not cover members added
 * later). A deliberate fire-and-forget call is written `void promise` with a comment saying why.
 */
const typeAware = {
  files: ["**/*.ts", "**/*.tsx", "**/*.mts"],
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  plugins: { "@typescript-eslint": tseslint.plugin },
  rules: {
    "@typescript-eslint/no-floating-promises": "error",
    "@typescript-eslint/no-misused-promises": "error",
    "@typescript-eslint/switch-exhaustiveness-check": "error",
    "@typescript-eslint/await-thenable": "error",
    "@typescript-eslint/only-throw-error": "error",
    // As only-throw-error by default: a value typed any or unknown (an abort reason, a caught error) passes through.
    "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
  },
};

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  frameworkFree,
  typeAware,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  globalIgnores([
    ".next/**",
    "node_modules/**",
    "dist/**",
    "dist-workers/**",
    "scratch/**",
    "drizzle/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
    "examples/**/node_modules/**",
  ]),
]);
