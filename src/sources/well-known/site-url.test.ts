import { describe, expect, it } from "vitest";
import { indexUrls, isAllowedUrl, isSiteUrl, parseSiteUrl } from "./site-url.js";

describe("site URLs", () => {
  it("tells sites from folders", () => {
    expect([
      isSiteUrl("https://example.com"),
      isSiteUrl("HTTP://127.0.0.1"),
      isSiteUrl("./https:/x"),
      isSiteUrl("~/skills"),
    ]).toEqual([true, true, false, false]);
  });

  it("allows http only to loopback addresses, not to names that merely start like one", () => {
    const allowed = (url: string) => isAllowedUrl(new URL(url));
    expect(
      [
        "http://127.0.0.1:80/",
        "http://127.8.9.10/",
        "http://[::1]:9/",
        "http://localhost/",
        "https://example.com/",
      ].map(allowed),
    ).toEqual([true, true, true, true, true]);
    expect(
      [
        "http://127.0.0.1.nip.io/",
        "http://localhost.example.com/",
        "http://10.0.0.1/",
        "http://[::2]/",
        "ftp://example.com/",
      ].map(allowed),
    ).toEqual([false, false, false, false, false]);
  });

  it("refuses credentials, other schemes and malformed URLs with a message naming the URL", () => {
    expect(() => parseSiteUrl("https://user:pw@example.com")).toThrow(
      "https://user:pw@example.com: a site URL must not carry credentials",
    );
    expect(() => parseSiteUrl("http://127.0.0.1.nip.io")).toThrow(
      "http://127.0.0.1.nip.io: skills are fetched over https only",
    );
    expect(() => parseSiteUrl("https://")).toThrow("https:// is not a valid URL");
  });

  it("looks for the index below the site's path, agent-skills first, or at an index.json given", () => {
    expect(indexUrls(parseSiteUrl("https://example.com/docs/?q=1#x")).map(String)).toEqual([
      "https://example.com/docs/.well-known/agent-skills/index.json",
      "https://example.com/docs/.well-known/skills/index.json",
    ]);
    expect(indexUrls(parseSiteUrl("https://example.com")).map(String)).toEqual([
      "https://example.com/.well-known/agent-skills/index.json",
      "https://example.com/.well-known/skills/index.json",
    ]);
    expect(indexUrls(parseSiteUrl("https://example.com/team/index.json")).map(String)).toEqual([
      "https://example.com/team/index.json",
    ]);
  });
});
