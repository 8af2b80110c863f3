import { describe, expect, it } from "vitest";
import {
  doctorFixture,
  PROVENANCE,
  scenarioFixture,
  triggerFixture,
  tuneFixture,
} from "./__fixtures__/report-fixtures.js";
import { doctorPage } from "./doctor-page.js";
import { scenarioEvalPage } from "./scenario-eval-page.js";
import { triggerEvalPage } from "./trigger-eval-page.js";
import { tunePage } from "./tune-page.js";

const occurrences = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].length;
// The markup of the first element with this opening tag, up to its closing tag (no nesting of the same tag inside).
const element = (page: string, open: string, tag: string) => {
  const start = page.indexOf(open);
  return start < 0 ? "" : page.slice(start, page.indexOf(`</${tag}>`, start) + tag.length + 3);
};
const headline = (page: string) => /<h1>(.*?)<\/h1>/.exec(page)?.[1];

describe("every page", () => {
  const pages = {
    trigger: triggerEvalPage(triggerFixture(), PROVENANCE),
    scenario: scenarioEvalPage(scenarioFixture(), PROVENANCE),
    tune: tunePage(tuneFixture(), PROVENANCE),
    doctor: doctorPage(doctorFixture(), { command: "skillset doctor", date: PROVENANCE.date }),
  };

  it.each(Object.entries(pages))(
    "%s: is one document with no script, nothing to fetch, a policy that loads nothing, and one h1",
    (_, page) => {
      expect(page.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
      expect(page).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|url\(|@import/i);
      expect(page).toMatch(
        /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+';/,
      );
      expect(occurrences(page, /<h1>/g)).toBe(1);
      // Every drawing is either hidden from screen readers (its row's text says it) or labelled.
      expect(occurrences(page, /<svg /g)).toBe(
        occurrences(page, /<svg [^>]*aria-hidden="true"/g) +
          occurrences(page, /<svg [^>]*role="img" aria-label="[^"]+"/g),
      );
    },
  );

  it("names the model, the date and the command that produced the page", () => {
    expect(pages.trigger).toContain(
      '<dl class="provenance"><dt>Model</dt><dd><code>openai:gpt-4o-mini</code></dd><dt>Date</dt><dd><time datetime="2026-11-20T14:03:07.000Z">2026-11-20 14:03 UTC</time></dd><dt>Command</dt><dd><code>skillset eval skills --model openai:gpt-4o-mini --html eval-report.html</code></dd></dl>',
    );
    expect(pages.doctor).not.toContain("<dt>Model</dt>");
  });
});

describe("triggerEvalPage", () => {
  const page = triggerEvalPage(triggerFixture(), PROVENANCE);

  it("leads with how many queries fail", () => {
    expect(headline(page)).toBe("3 of 16 queries fail");
  });

  it("draws one bar per query, each with the threshold line at half its width", () => {
    expect(occurrences(page, /<svg class="rate"/g)).toBe(16);
    expect(
      occurrences(
        page,
        /<rect class="track" x="0" y="4" width="200" height="10" rx="2"\/><rect class="bar (pass|fail)"[^>]*\/><line class="threshold"/g,
      ),
    ).toBe(16);
    expect(occurrences(page, /<line class="threshold" x1="100" x2="100"/g)).toBe(16);
  });

  it("puts should-trigger queries and near misses in tables apart, the failing first", () => {
    const should = element(page, '<table class="queries should">', "table");
    const nearMiss = element(page, '<table class="queries near-miss">', "table");
    expect([...should.matchAll(/<tr class="(pass|fail)">/g)].map((match) => match[1])).toEqual([
      "fail",
      "pass",
      "pass",
      "pass",
      "pass",
    ]);
    expect([...nearMiss.matchAll(/<tr class="(pass|fail)">/g)].map((match) => match[1])).toEqual([
      "fail",
      "fail",
      "pass",
      "pass",
      "pass",
    ]);
    expect(should).toContain(
      '<td class="text">What is in this spreadsheet export?</td><td class="num">1/3 <span class="note">(0.33)</span></td>',
    );
  });

  it("lists the skills, the weakest first, when there are several", () => {
    const overview = element(page, '<table class="skills">', "table");
    expect([...overview.matchAll(/<a href="#(skill-\d)">([^<]+)<\/a>/g)].map((match) => match.slice(1))).toEqual([
      ["skill-1", "csv-insights"],
      ["skill-2", "release-notes"],
    ]);
  });

  it("keeps a hostile skill name, file and query inert", () => {
    const report = triggerFixture();
    report.skills[0]!.skill = "csv\u202egnp.exe";
    report.skills[0]!.file = `"><svg onload=alert(1)>`;
    report.skills[0]!.queries[1]!.query = "</script><img src=x onerror=alert(1)>";
    const hostile = triggerEvalPage(report, { ...PROVENANCE, command: "skillset eval '<b>'" });
    expect(hostile).not.toContain("\u202e");
    expect(hostile).not.toMatch(/<img|<svg onload|<b>/);
    expect(hostile).toContain("csv\\u202egnp.exe");
    expect(hostile).toContain("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(hostile).toContain("&quot;&gt;&lt;svg onload=alert(1)&gt;");
  });
});

describe("scenarioEvalPage", () => {
  const page = scenarioEvalPage(scenarioFixture(), PROVENANCE);

  it("leads with the failing runs, then pass rate, precision and recall", () => {
    expect(headline(page)).toBe("4 of 15 runs fail");
    expect(page).toContain('<span class="value bad">73.3%</span><span class="label">of runs pass</span>');
    expect(page).toContain('<span class="value">0.727</span>');
    expect(page).toContain('<span class="value">0.889</span>');
  });

  it("gives every case a pass-rate bar, precision and recall, the failing cases first", () => {
    expect(occurrences(page, /<svg class="amount"/g)).toBe(5);
    expect([...page.matchAll(/<td class="text"><strong>([^<]+)<\/strong>/g)].map((match) => match[1])).toEqual([
      "spreadsheet",
      "error-shape",
      "profile-orders",
      "changelog",
      "small-talk",
    ]);
    expect(page).toContain('<td class="num">2/3</td><td class="chart"><svg class="amount"');
    expect(page).toContain('<span class="name">api-error-review</span>&nbsp;×2<br>none&nbsp;×1');
    expect(page).toContain('<td class="num">1.000</td><td class="num">0.667</td>');
  });
});

describe("tunePage", () => {
  const page = tunePage(tuneFixture(), PROVENANCE);

  it("leads with the chosen iteration and its validation pass rate against the first", () => {
    expect(headline(page)).toBe("Iteration 2 did best: validation 87.5%, was 50%");
  });

  it("draws a train and a validation point per iteration, and rings the chosen one once", () => {
    const chart = element(page, '<svg class="line-chart"', "svg");
    expect(occurrences(chart, /<circle class="point train"/g)).toBe(4);
    expect(occurrences(chart, /<circle class="point validation"/g)).toBe(4);
    expect(occurrences(chart, /<rect class="chosen-ring"/g)).toBe(1);
    // The ring is centred on the third of four steps: 44 + 2/3 of the 832 wide plot.
    expect(chart).toMatch(/<rect class="chosen-ring" x="(\d+(\.\d)?)"/);
    expect(Number(/<rect class="chosen-ring" x="([\d.]+)"/.exec(chart)![1]) + 10).toBeCloseTo(44 + (2 / 3) * 832, 0);
    expect(chart).toContain(
      'aria-label="Pass rates by iteration. 0 (current): train 58.3%, validation 50%; 1: train 75%',
    );
  });

  it("marks the chosen row and shows the words that changed from the first description to it", () => {
    expect(occurrences(page, /<tr class="chosen">/g)).toBe(1);
    expect(page).toContain('<tr class="chosen"><td class="num">2 <span class="badge good">chosen</span>');
    expect(page).toContain(
      "Profile <ins>tabular data in </ins>CSV <del>files:</del><ins>or TSV files and spreadsheets:</ins> column types, missing <del>values</del><ins>values, outliers</ins> and summary statistics.<ins> Use when the user shares a data file or asks what is in a table.</ins>",
    );
  });

  it("says nothing changed when the current description did best", () => {
    const report = tuneFixture();
    report.best = { iteration: 0, description: report.iterations[0]!.description };
    const unchanged = tunePage(report, PROVENANCE);
    expect(headline(unchanged)).toBe("The current description did best (validation 50%)");
    expect(unchanged).not.toMatch(/<ins>|<del>/);
  });
});

describe("doctorPage", () => {
  const page = doctorPage(doctorFixture(), { command: "skillset doctor", date: PROVENANCE.date });

  it("leads with the findings' counts, then groups them by severity, each with its fix", () => {
    expect(headline(page)).toBe("1 error, 5 warnings, 2 info in 8 skills");
    expect([...page.matchAll(/<h2 id="findings-\w+">([^<]+)<\/h2>/g)].map((match) => match[1])).toEqual([
      "Errors (1)",
      "Warnings (5)",
      "Info (2)",
    ]);
    expect(occurrences(page, /<article class="finding error">/g)).toBe(1);
    expect(occurrences(page, /<article class="finding warning">/g)).toBe(5);
    expect(page).toContain(
      '<p class="fix">Write what the skill does and when to use it, in the words of the requests it is for</p>',
    );
  });

  it("lists the rival pairs with their overlap, the largest first", () => {
    const rivals = element(page, '<table class="rivals">', "table");
    expect(
      [...rivals.matchAll(/<tr><td>([^<]+)<\/td><td>([^<]+)<\/td><td class="num">([^<]+)<\/td>/g)].map((match) =>
        match.slice(1),
      ),
    ).toEqual([
      ["pdf-extract", "pdf-text", "92%"],
      ["pdf-text", "pdf-tools", "64%"],
    ]);
  });

  it("draws every skill's catalog cost, costliest first, the budget line, and what falls outside it", () => {
    const catalog = element(page, '<table class="catalog">', "table");
    expect(occurrences(catalog, /<rect class="bar/g)).toBe(8);
    expect(occurrences(catalog, /<rect class="bar outside"/g)).toBe(3);
    expect(
      [...catalog.matchAll(/<tr(?: class="outside")?><td>([^<]+)<\/td><td class="num">(\d+)<\/td>/g)].map((match) =>
        Number(match[2]),
      ),
    ).toEqual([94, 86, 83, 71, 66, 57, 52, 0]);
    const strip = element(page, '<svg class="strip"', "svg");
    expect(occurrences(strip, /<rect class="segment bar/g)).toBe(7);
    expect(occurrences(strip, /<line class="budget"/g)).toBe(1);
    expect(page).toContain(
      "3 skills are shown less than whole: release-notes (shortened), sql-format (shortened), pdf-tools (name only).",
    );
  });

  it("says there are no findings, and draws no budget line with no budget", () => {
    const report = doctorFixture();
    report.findings = [];
    report.summary = { error: 0, warning: 0, info: 0 };
    report.catalog = { ...report.catalog, budget: false };
    const clean = doctorPage(report, { command: "skillset doctor", date: PROVENANCE.date });
    expect(headline(clean)).toBe("No findings in 8 skills");
    expect(clean).not.toContain('<line class="budget"');
    expect(clean).not.toContain('id="rivals"');
  });
});
