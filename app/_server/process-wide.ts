/**
 * Values the whole server process shares (the store, the job runner, the registry, caches). They
 * live on globalThis under a registered symbol: Next.js may load a module once per route bundle
 * and again after a reload in development, and every copy must find the same value.
 */
import "server-only";

type Holder = Record<symbol, unknown>;

/** The process's value for `name`, made by `make` on first use. */
export function processWide<T>(name: string, make: () => T): T {
  const holder = globalThis as unknown as Holder;
  const key = Symbol.for(`backtrack.inspector.${name}`);
  if (!(key in holder)) holder[key] = make();
  return holder[key] as T;
}

/**
 * The process's value for `name`, started by `start` on first use. A start that fails is not
 * kept: the next call tries again (the database may have come up meanwhile).
 */
export function processWideStart<T>(name: string, start: () => Promise<T>): Promise<T> {
  const holder = globalThis as unknown as Holder;
  const key = Symbol.for(`backtrack.inspector.${name}`);
  if (!(key in holder)) {
    holder[key] = start().catch((error: unknown) => {
      delete holder[key];
      throw error;
    });
  }
  return holder[key] as Promise<T>;
}
