/**
 * Issue 12 item 4: where signing in leads. `next` is resolved against the site's own origin as a
 * browser resolves a Location, and kept only when that origin is unchanged; otherwise /runs.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_NEXT, safeNext } from "@/app/_server/access";

const ORIGIN = "http://127.0.0.1:3000";

/** Where a browser on ORIGIN goes when told `Location: <path>`, and whether the header is legal. */
function followed(path: string): { origin: string; headerOk: boolean } {
  let headerOk = true;
  try {
    new Headers({ location: path });
  } catch {
    headerOk = false;
  }
  return { origin: new URL(path, ORIGIN).origin, headerOk };
}

describe("safeNext (open redirect)", () => {
  it("refuses a tab or newline that turns the path into another host", () => {
    expect(safeNext("/\t/evil.example/phish", ORIGIN)).toBe(DEFAULT_NEXT);
    expect(safeNext("/\n/evil.example/phish", ORIGIN)).toBe(DEFAULT_NEXT);
    expect(safeNext("/\r\n/evil.example", ORIGIN)).toBe(DEFAULT_NEXT);
    expect(safeNext("/\\evil.example", ORIGIN)).toBe(DEFAULT_NEXT);
    expect(safeNext("/.//evil.example/phish", ORIGIN)).toBe(DEFAULT_NEXT);
    expect(safeNext("https:evil.example", ORIGIN)).toBe(DEFAULT_NEXT);
    expect(safeNext("javascript:alert(1)", ORIGIN)).toBe(DEFAULT_NEXT);
    expect(safeNext("http://127.0.0.1:3001/runs", ORIGIN)).toBe(DEFAULT_NEXT);
  });

  it("keeps a path of this site, rebuilt without control characters", () => {
    expect(safeNext("/runs/x?at=3#top", ORIGIN)).toBe("/runs/x?at=3#top");
    expect(safeNext("/runs\n?at=2", ORIGIN)).toBe("/runs?at=2");
    expect(safeNext(`${ORIGIN}/recovery`, ORIGIN)).toBe("/recovery");
    expect(safeNext(["/runs", "//evil.example"], ORIGIN)).toBe(DEFAULT_NEXT);
    expect(safeNext(undefined, ORIGIN)).toBe(DEFAULT_NEXT);
  });

  it("never yields a Location that leaves the origin or that a header refuses (5,000 generated inputs)", () => {
    const pieces = ["/", "\\", "\t", "\n", "\r", "\u0000", ".", "..", "evil.example", ":", "@", "%2f", "%09", "?", "#", "http:", "https://", " ", "runs"];
    let seed = 12;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let index = 0; index < 5_000; index += 1) {
      const input = Array.from({ length: 1 + Math.floor(random() * 8) }, () => pieces[Math.floor(random() * pieces.length)]).join("");
      const next = safeNext(input, ORIGIN);
      expect(followed(next), JSON.stringify(input)).toEqual({ origin: ORIGIN, headerOk: true });
      expect(next.startsWith("/") && !next.startsWith("//"), JSON.stringify(input)).toBe(true);
    }
  });
});
