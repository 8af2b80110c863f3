// The HTML reports in a real browser: Debian's Chromium, driven by playwright-core, opens each
// page from disk with a fresh profile and no network. Each page must load with no console error
// and no request but its own file, draw the expected number of bars and points for the fixture
// run, and keep a skill's hostile text inert. A screenshot of each page type is kept under
// test-artifacts/ and copied to docs/images/, where the docs show it.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  doctorFixture,
  PROVENANCE,
  scenarioFixture,
  triggerFixture,
  tuneFixture,
} from "../../src/cli/html-report/__fixtures__/report-fixtures.js";
import { doctorPage } from "../../src/cli/html-report/doctor-page.js";
import { scenarioEvalPage } from "../../src/cli/html-report/scenario-eval-page.js";
import { triggerEvalPage } from "../../src/cli/html-report/trigger-eval-page.js";
import { tunePage } from "../../src/cli/html-report/tune-page.js";
import { CHROMIUM, useChromium } from "../helpers/test-environment.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ARTIFACTS = join(ROOT, "test-artifacts", "html-report");
const DOCS_IMAGES = join(ROOT, "docs", "images");

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let context: BrowserContext;
let profile: string;

/** A page opened from its file, with every request and console error it caused. */
interface Opened {
  page: Page;
  url: string;
  requests: string[];
  errors: string[];
}

async function open(name: string, html: string): Promise<Opened> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.html`);
  writeFileSync(file, html);
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  const url = pathToFileURL(file).href;
  await page.goto(url, { waitUntil: "load" });
  return { page, url, requests, errors };
}

// The page as a picture, kept as a test artifact and shown by the docs.
async function screenshot(page: Page, type: string): Promise<void> {
  const file = join(ARTIFACTS, `report-${type}.png`);
  await page.screenshot({ path: file, fullPage: true });
  mkdirSync(DOCS_IMAGES, { recursive: true });
  copyFileSync(file, join(DOCS_IMAGES, `report-${type}.png`));
}

const counted = (page: Page, selector: string) => page.locator(selector).count();

describe.skipIf(!useChromium())("HTML reports in Chromium", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), "skillset-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1100, height: 900 },
      offline: true,
    });
  });
  afterAll(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  // Loaded from its file alone, no console error, no script, every drawing labelled or hidden.
  async function expectSelfContained(opened: Opened): Promise<void> {
    expect(opened.requests).toEqual([opened.url]);
    expect(opened.errors).toEqual([]);
    expect(await counted(opened.page, "script, link, iframe, object, embed, img")).toBe(0);
    expect(await counted(opened.page, 'svg:not([aria-hidden="true"]):not([role="img"][aria-label])')).toBe(0);
    expect(await counted(opened.page, "h1")).toBe(1);
  }

  it("trigger evals: a bar per query against the 0.5 line, failing first, should-trigger and near misses apart", async () => {
    const opened = await open("report-eval", triggerEvalPage(triggerFixture(), PROVENANCE));
    const { page } = opened;
    await expectSelfContained(opened);
    expect(await page.locator("h1").textContent()).toBe("3 of 16 queries fail");
    expect(await counted(page, "table.queries svg.rate rect.bar")).toBe(16);
    expect(await counted(page, "table.queries.should tbody tr")).toBe(8);
    expect(await counted(page, "table.queries.near-miss tbody tr")).toBe(8);
    // Every threshold line stands at half the bar's width.
    const thresholds = await page.locator("svg.rate line.threshold").evaluateAll((lines) =>
      lines.map((line) => {
        const box = line.getBoundingClientRect();
        const track = line.parentElement!.querySelector("rect.track")!.getBoundingClientRect();
        return Math.round(((box.left - track.left) / track.width) * 100);
      }),
    );
    expect(thresholds).toEqual(Array(16).fill(50));
    // The first table's first row is its failing query, drawn at a third.
    const first = page.locator("table.queries.should").first().locator("tbody tr").first();
    expect(await first.getAttribute("class")).toBe("fail");
    expect(await first.locator("rect.bar").getAttribute("width")).toBe("66.7");
    await screenshot(page, "eval");
    await page.pdf({ path: join(ARTIFACTS, "report-eval.pdf") });
    await page.close();
  });

  it("scenario evals: a pass-rate bar per case, failing first, with precision and recall", async () => {
    const opened = await open("report-eval-cases", scenarioEvalPage(scenarioFixture(), PROVENANCE));
    const { page } = opened;
    await expectSelfContained(opened);
    expect(await page.locator("h1").textContent()).toBe("4 of 15 runs fail");
    expect(await counted(page, "table.cases rect.bar")).toBe(5);
    expect(await page.locator("table.cases tbody tr td:nth-child(2) strong").allTextContents()).toEqual([
      "spreadsheet",
      "error-shape",
      "profile-orders",
      "changelog",
      "small-talk",
    ]);
    await screenshot(page, "eval-cases");
    await page.close();
  });

  it("tune: a train and a validation point per iteration, the chosen one ringed, the diff of the descriptions", async () => {
    const opened = await open(
      "report-tune",
      tunePage(tuneFixture(), {
        ...PROVENANCE,
        command: "skillset tune csv-insights skills --model openai:gpt-4o-mini --html tune-report.html",
      }),
    );
    const { page } = opened;
    await expectSelfContained(opened);
    expect(await counted(page, "svg.line-chart circle.point.train")).toBe(4);
    expect(await counted(page, "svg.line-chart circle.point.validation")).toBe(4);
    expect(await counted(page, "svg.line-chart polyline.series")).toBe(2);
    // The ring is around the third iteration's points.
    const ring = await page.locator("svg.line-chart .chosen-ring").boundingBox();
    const third = await page.locator("svg.line-chart circle.point.validation").nth(2).boundingBox();
    expect(Math.abs(ring!.x + ring!.width / 2 - (third!.x + third!.width / 2))).toBeLessThan(1);
    expect(await page.locator("tr.chosen td").first().textContent()).toBe("2 chosen");
    expect(await counted(page, ".diff ins")).toBeGreaterThan(0);
    expect(await counted(page, ".diff del")).toBeGreaterThan(0);
    await screenshot(page, "tune");
    await page.close();
  });

  it("doctor: findings by severity, the rival pairs, a cost bar per skill and the budget line", async () => {
    const opened = await open(
      "report-doctor",
      doctorPage(doctorFixture(), {
        command: "skillset doctor project --budget 500 --no-threads --html doctor-report.html",
        date: PROVENANCE.date,
      }),
    );
    const { page } = opened;
    await expectSelfContained(opened);
    expect(await page.locator("h2[id^=findings-]").allTextContents()).toEqual([
      "Errors (1)",
      "Warnings (5)",
      "Info (2)",
    ]);
    expect(await counted(page, "table.rivals tbody tr")).toBe(2);
    expect(await counted(page, "table.catalog rect.bar")).toBe(8);
    expect(await counted(page, "table.catalog rect.bar.outside")).toBe(3);
    expect(await counted(page, "svg.strip rect.segment")).toBe(7);
    expect(await counted(page, "svg.strip line.budget")).toBe(1);
    await screenshot(page, "doctor");
    await page.close();
  });

  it("keeps a skill's hostile name and text inert: no element, no request, no script run", async () => {
    const report = triggerFixture();
    report.skills[0]!.skill = "csv\u202egnp.exe";
    report.skills[0]!.queries[0]!.query = `</script><img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script>`;
    report.skills[0]!.file = `"><svg onload="document.title='pwned'">`;
    const opened = await open("report-hostile", triggerEvalPage(report, PROVENANCE));
    const { page } = opened;
    await expectSelfContained(opened);
    expect(await page.title()).toBe("skillset eval · trigger evals: 3 of 16 queries fail");
    expect(await page.locator("#skill-1").textContent()).toBe("csv\\u202egnp.exe");
    expect(await page.locator("table.queries td.text").allTextContents()).toContain(
      report.skills[0]!.queries[0]!.query,
    );
    await page.close();
  });
});
