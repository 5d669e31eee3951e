import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import { defineConfig, globalIgnores } from "eslint/config";

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

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  frameworkFree,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  globalIgnores([".next/**", "node_modules/**", "dist/**", "scratch/**", "drizzle/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "examples/**/node_modules/**"]),
]);
