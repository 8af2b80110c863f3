import { describe, expect, it } from "vitest";
import { failHeadline, html, percent } from "./html-text.js";
import { reportProvenance } from "./report-provenance.js";
import { wordDiff } from "./word-diff.js";

describe("html", () => {
  it("turns markup characters into entities, so text can neither add an element nor leave an attribute", () => {
    expect(html(`</script><img src=x onerror="alert('x')">&amp;`)).toBe(
      "&lt;/script&gt;&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;amp;",
    );
  });

  it("shows control, bidirectional and invisible format characters as escapes instead of obeying them", () => {
    expect(html("csv\u202egnp.exe")).toBe("csv\\u202egnp.exe");
    expect(html("a\u2066b\u2069c\u200bd\ufeffe")).toBe("a\\u2066b\\u2069c\\u200bd\\ufeffe");
    expect(html("line\nbreak\u001b[31m")).toBe("line\\nbreak\\u001b[31m");
  });

  it("leaves other text, right-to-left letters included, as it is", () => {
    expect(html("Profile CSV files — 50% · مرحبا")).toBe("Profile CSV files — 50% · مرحبا");
  });
});

describe("percent and failHeadline", () => {
  it("rounds to one place", () => {
    expect([percent(0.6667), percent(1), percent(0), percent(0.125)]).toEqual(["66.7%", "100%", "0%", "12.5%"]);
  });

  it("says how many fail, all pass, or the one", () => {
    expect(failHeadline(3, 12, "query", "queries")).toBe("3 of 12 queries fail");
    expect(failHeadline(1, 12, "query", "queries")).toBe("1 of 12 queries fails");
    expect(failHeadline(0, 12, "query", "queries")).toBe("All 12 queries pass");
    expect(failHeadline(1, 1, "run", "runs")).toBe("The one run fails");
    expect(failHeadline(0, 1, "run", "runs")).toBe("The one run passes");
  });
});

describe("wordDiff", () => {
  it("marks the words removed and added, one change as one removed then one added part", () => {
    expect(wordDiff("Profile CSV files: column types.", "Profile CSV or TSV files and sheets: column types.")).toEqual([
      { kind: "same", text: "Profile CSV " },
      { kind: "removed", text: "files:" },
      { kind: "added", text: "or TSV files and sheets:" },
      { kind: "same", text: " column types." },
    ]);
  });

  it("gives one same part for equal texts and one added part from nothing", () => {
    expect(wordDiff("a b", "a b")).toEqual([{ kind: "same", text: "a b" }]);
    expect(wordDiff("", "new text")).toEqual([{ kind: "added", text: "new text" }]);
  });
});

describe("reportProvenance", () => {
  it("quotes the command line as a shell would take it, hides a URL's credentials, and takes the date from SOURCE_DATE_EPOCH", () => {
    const provenance = reportProvenance(
      "openai:gpt-4o-mini",
      ["eval", "my cases.yaml", "--base-url", "https://user:secret@example.com/v1", "--html", "r.html"],
      { SOURCE_DATE_EPOCH: "1795701787" },
    );
    expect(provenance).toEqual({
      command: "skillset eval 'my cases.yaml' --base-url 'https://…@example.com/v1' --html r.html",
      date: "2026-11-26T14:03:07.000Z",
      model: "openai:gpt-4o-mini",
    });
  });

  it("has no model for a command that asks none, and the current time without SOURCE_DATE_EPOCH", () => {
    const before = Date.now();
    const provenance = reportProvenance(undefined, ["doctor"], {});
    expect(provenance.command).toBe("skillset doctor");
    expect("model" in provenance).toBe(false);
    expect(Date.parse(provenance.date)).toBeGreaterThanOrEqual(before - 1000);
  });
});
