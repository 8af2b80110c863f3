import { SkillsetError } from "../../errors/skillset-error.js";

/** Where the well-known index may live below a site, in the order the `skills` CLI tries them. */
export const WELL_KNOWN_PATHS = [".well-known/agent-skills", ".well-known/skills"] as const;

/** True for a string that names a site (`https://…` or `http://…`) rather than a folder. */
export function isSiteUrl(entry: string): boolean {
  return /^https?:\/\//i.test(entry);
}

/** True when `url` may be fetched: `https:`, or `http:` to this machine only (for tests). */
export function isAllowedUrl(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname));
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The site a source string names, checked: a parseable `https:` URL (or `http:` to a loopback
 * address), without credentials. A trailing `/` or `index.json` is dropped later by
 * {@link indexUrls}.
 */
export function parseSiteUrl(entry: string): URL {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new SkillsetError("invalid-url", `${entry} is not a valid URL`);
  }
  if (url.protocol === "http:" && !isAllowedUrl(url)) {
    throw new SkillsetError(
      "insecure-url",
      `${entry}: skills are fetched over https only (http is allowed for 127.0.0.1, ::1 and localhost, for tests); use https://${url.host}${url.pathname}`,
    );
  }
  if (!isAllowedUrl(url)) throw new SkillsetError("invalid-url", `${entry}: a site for skills must be an https:// URL`);
  if (url.username || url.password)
    throw new SkillsetError("invalid-url", `${entry}: a site URL must not carry credentials`);
  url.hash = "";
  url.search = "";
  return url;
}

/**
 * The index URLs to try for a site, first found wins: the URL itself when it names an
 * `index.json`, else `<site>/.well-known/agent-skills/index.json` then `<site>/.well-known/skills/index.json`.
 */
export function indexUrls(site: URL): URL[] {
  if (site.pathname.endsWith("/index.json")) return [new URL(site)];
  const base = site.pathname.replace(/\/+$/, "");
  return WELL_KNOWN_PATHS.map((path) => new URL(`${base}/${path}/index.json`, site.origin));
}
