/** Default lines per page of `read_skill_resource`. */
export const DEFAULT_RESOURCE_LINES = 500;

/** Largest resource read, as for `SKILL.md`. */
export const MAX_RESOURCE_BYTES = 10 * 1024 * 1024;

const MAX_PAGE_CHARS = 50_000;

/**
 * A page of a resource for the model: text by lines with a header that says where the page is
 * and how to get the next one; binary content (NUL bytes or invalid UTF-8) is described, not
 * dumped.
 */
export function renderResourcePage(
  path: string,
  bytes: Uint8Array,
  offset = 0,
  limit = DEFAULT_RESOURCE_LINES,
): string {
  const text = decodeText(bytes);
  if (text === undefined)
    return `${path} is a binary file (${bytes.byteLength} bytes${binaryKind(bytes)}); its content is not shown.`;
  if (bytes.byteLength === 0) return `${path} is empty.`;
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  if (offset >= lines.length) return `Error: offset ${offset} is past the end of ${path} (${lines.length} lines).`;
  const page: string[] = [];
  let chars = 0;
  let index = offset;
  for (; index < Math.min(lines.length, offset + limit); index++) {
    const line = lines[index]!;
    if (chars + line.length > MAX_PAGE_CHARS && page.length > 0) break;
    page.push(line.length > MAX_PAGE_CHARS ? `${line.slice(0, MAX_PAGE_CHARS)}… (line cut)` : line);
    chars += line.length + 1;
  }
  const next = index < lines.length ? `; next offset ${index}` : "";
  return `[${path}: lines ${offset + 1}-${index} of ${lines.length}${next}]\n${page.join("\n")}`;
}

function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

const SIGNATURES: Array<[number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47], "PNG image"],
  [[0xff, 0xd8, 0xff], "JPEG image"],
  [[0x47, 0x49, 0x46, 0x38], "GIF image"],
  [[0x25, 0x50, 0x44, 0x46], "PDF document"],
  [[0x50, 0x4b, 0x03, 0x04], "ZIP archive"],
  [[0x1f, 0x8b], "gzip archive"],
];

function binaryKind(bytes: Uint8Array): string {
  const match = SIGNATURES.find(([signature]) => signature.every((byte, index) => bytes[index] === byte));
  return match ? `, looks like a ${match[1]}` : "";
}
