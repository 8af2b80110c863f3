/**
 * The specifier an import names, seen from the module that imports it: a relative specifier (`./`, `../`)
 * inside a module is resolved against that module's specifier with `.` and `..` collapsed (never above its
 * first segment's root); anything else is returned as written, for the host to accept or refuse.
 */
export function resolveModuleSpecifier(importer: string | undefined, specifier: string): string {
  if (importer === undefined || !(specifier.startsWith("./") || specifier.startsWith("../"))) return specifier;
  const segments = importer.split("/").slice(0, -1);
  for (const segment of specifier.split("/")) {
    if (segment === "..") {
      // Stay inside the importer's root ("@" of "@/skills/x"): a specifier climbing above it keeps its
      // remaining ".." so the host sees (and refuses) the attempt rather than a silently different path.
      if (segments.length > 1 && segments.at(-1) !== "..") segments.pop();
      else segments.push("..");
    } else if (segment !== "." && segment !== "") {
      segments.push(segment);
    }
  }
  return segments.join("/");
}
