import { parentFolder } from "../../core/text/path-separator.js";
import { skillUri } from "../skills-extension/skill-uri.js";

// The opening tag of a load result: `<skill name="x" path="/home/…/x/SKILL.md">`.
const OPENING = /^<skill name="([^"]*)" path="([^"]*)">\n/;
// Where the instructions end and the listing the engine adds after them begins.
const CLOSING = /\n<\/skill>(?=\n|$)/g;

/**
 * A `load_skill` or `prompts/get` result as the server sends it: the skill's `SKILL.md` and its
 * folder named by their `skill://` URIs (the resources this server serves, which
 * `read_skill_resource` paths are relative to) instead of the server's absolute paths, which
 * would tell every client, over HTTP too, how the server's disk is laid out. Only the engine's
 * own framing changes (the opening tag, the resource listing after `</skill>`); the skill's
 * instructions stay as rendered. Any other text is returned as it is.
 */
export function withServedFileNames(text: string): string {
  const opening = OPENING.exec(text);
  if (!opening) return text;
  const [tag, name, path] = opening as unknown as [string, string, string];
  // Names of served skills never hold a quote; a URI names the same skill the resources list.
  const folder = `${skillUri(name, "")}/`;
  const closings = [...text.matchAll(CLOSING)];
  const tailStart = closings.length > 0 ? closings.at(-1)!.index : text.length;
  const directory = parentFolder(path);
  const tail = text
    .slice(tailStart)
    .replaceAll(`<skill_resources base="${directory}">`, `<skill_resources base="${folder}">`)
    .replaceAll(`Paths above are relative to ${directory};`, `Paths above are relative to ${folder};`);
  const middle = text.slice(tag.length, tailStart);
  return `<skill name="${name}" path="${skillUri(name)}">\n${middle}${tail}`;
}
