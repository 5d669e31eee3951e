/**
 * The docs hold together: every relative link and image in README.md, CONTRIBUTING.md and
 * docs/**\/*.md names a file that exists, and every #anchor a heading of that file (GitHub's
 * slugs). Links inside code (fenced blocks, `spans`) are text, not links, and are skipped, as are
 * links to other sites. The README stays short enough to finish.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");

function markdownFiles(): string[] {
  const found = ["README.md", "CONTRIBUTING.md"].map((name) => join(ROOT, name));
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".md")) found.push(path);
    }
  };
  walk(join(ROOT, "docs"));
  return found;
}

/** The text outside fenced code blocks, line by line (code lines become empty, so line numbers hold). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const plain = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

/** The relative links and images of one Markdown file that do not resolve. */
function brokenLinks(file: string, text: string, readText: (path: string) => string | undefined): BrokenLink[] {
  const broken: BrokenLink[] = [];
  proseLines(text).forEach((raw, index) => {
    const line = raw.replace(/(`+)[^`]*?\1/g, "");
    for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1] as string;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
      const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
      const path = pathPart === "" ? file : resolve(dirname(file), decodeURIComponent(pathPart));
      const at = { file: relative(ROOT, file), line: index + 1, target };
      const targetText = readText(path);
      if (targetText === undefined) {
        broken.push({ ...at, reason: "no such file" });
        continue;
      }
      if (anchor !== undefined && path.endsWith(".md") && !headingAnchors(targetText).has(anchor)) broken.push({ ...at, reason: `no heading #${anchor}` });
    }
  });
  return broken;
}

function readIfExists(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  return statSync(path).isDirectory() ? "" : readFileSync(path, "utf8");
}

describe("documentation links", () => {
  it("resolves every relative link and image in README.md, CONTRIBUTING.md and docs/", () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThanOrEqual(13);
    const broken = files.flatMap((file) => brokenLinks(file, readFileSync(file, "utf8"), readIfExists));
    expect(broken).toEqual([]);
  });

  it("reports a missing file, a missing anchor and a missing image, and skips code and other sites", () => {
    const files: Record<string, string> = { [join(ROOT, "docs/a.md")]: "# A page\n\n## Set-up: `npm ci` first\n", [join(ROOT, "docs/shot.png")]: "" };
    const read = (path: string) => files[path];
    const text = [
      "[ok](a.md#set-up-npm-ci-first) [self](#a-page) ![shot](shot.png) [web](https://example.com/x.md)",
      "[gone](missing.md) [bad anchor](a.md#nowhere) ![no image](gone.png)",
      "`[in code](missing.md)`",
      "```",
      "[in a block](missing.md)",
      "```",
    ].join("\n");
    const selfText = `# A page\n${text}`;
    files[join(ROOT, "docs/self.md")] = selfText;
    expect(brokenLinks(join(ROOT, "docs/self.md"), selfText, read)).toEqual([
      { file: "docs/self.md", line: 3, target: "missing.md", reason: "no such file" },
      { file: "docs/self.md", line: 3, target: "a.md#nowhere", reason: "no heading #nowhere" },
      { file: "docs/self.md", line: 3, target: "gone.png", reason: "no such file" },
    ]);
  });

  it("slugs headings as GitHub does, numbering repeats", () => {
    const anchors = headingAnchors("# The seed's example: a ticket-booking session\n## Memory and `stripMemoryContext`\n## Sessions\n## Sessions\n");
    expect([...anchors]).toEqual(["the-seeds-example-a-ticket-booking-session", "memory-and-stripmemorycontext", "sessions", "sessions-1"]);
  });

  it("keeps the README short enough to finish", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(200);
  });
});

/**
 * Table rows whose cell count differs from their table's header: an unescaped `|` inside a cell
 * (even inside a code span, GitHub splits the cell there) is written `\|`.
 */
function splitTableRows(text: string): string[] {
  const problems: string[] = [];
  let width: number | undefined;
  proseLines(text).forEach((line, index) => {
    const row = line.trim();
    if (!row.startsWith("|")) {
      width = undefined;
      return;
    }
    const cells = row.match(/(?<!\\)\|/g)?.length ?? 0;
    if (width === undefined) width = cells;
    else if (cells !== width) problems.push(`line ${index + 1}: ${cells - 1} cells where the header has ${width - 1}`);
  });
  return problems;
}

describe("documentation tables", () => {
  it("escape every | inside a cell, so no row splits into extra cells", () => {
    const problems = markdownFiles().flatMap((file) => splitTableRows(readFileSync(file, "utf8")).map((problem) => `${relative(ROOT, file)} ${problem}`));
    expect(problems).toEqual([]);
  });

  it("finds a row split by a bare | and accepts an escaped one", () => {
    const table = (cell: string) => `| a | b |\n| - | - |\n| x | ${cell} |\n`;
    expect(splitTableRows(table("`one | two`"))).toEqual(["line 3: 3 cells where the header has 2"]);
    expect(splitTableRows(table("`one \\| two`"))).toEqual([]);
  });
});
