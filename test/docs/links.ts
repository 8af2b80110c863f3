// Relative links between the documentation's pages, and their #anchors, as GitHub renders them.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

/** The text of a Markdown file without its fenced blocks. */
const withoutFences = (text: string) => text.replace(/^( *)(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1\2[`~]*[ \t]*$/gm, "");

/** The text of a Markdown file without its fenced blocks and code spans, where links are not links. */
const prose = (text: string) => withoutFences(text).replace(/(`+)[\s\S]*?\1/g, "");

/** GitHub's anchors for a file's headings (github-slugger: lower case, punctuation dropped, spaces to hyphens, repeats numbered). */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const visible = heading!
      .replace(/`/g, "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<[^>]+>/g, "");
    const slug = visible
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

/** Each relative link of `doc` whose file does not exist, or whose #anchor is no heading there. */
export function linkProblems(root: string, doc: string): string[] {
  const text = readFileSync(join(root, doc), "utf8");
  const problems: string[] = [];
  for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z+.-]*:/i.test(target!)) continue; // https:, mailto:
    const [path = "", anchor] = target!.split("#") as [string, string | undefined];
    const file = path === "" ? join(root, doc) : normalize(join(root, dirname(doc), decodeURIComponent(path)));
    if (!file.startsWith(root) || !existsSync(file)) {
      problems.push(`${doc}: ${target} leads to no file`);
      continue;
    }
    if (
      anchor !== undefined &&
      (statSync(file).isDirectory() || !headingAnchors(readFileSync(file, "utf8")).has(anchor))
    ) {
      problems.push(`${doc}: ${target}: no heading has the anchor #${anchor}`);
    }
  }
  return problems;
}
