// `skillset doctor --embeddings <provider:model>` on the built CLI (`npm run build` first): rivals
// by meaning through the real @langchain/openai against a local server speaking OpenAI's
// embeddings API, with the vectors cached under XDG_CACHE_HOME as `search --embeddings` caches them.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { useEmbeddingsCli } from "../helpers/embeddings-cli.js";

const SPEC = "openai:text-embedding-3-small";
// interview-transcripts and internet-transfers share no word, so BM25 never pairs them; the fake
// server's vectors hash each word's first five letters, and their words pair up on those
// (trans-cribes/trans-ports, recor-ded/recor-dkeeping, …) but for "into" against "through": a
// cosine of 11/12. pdf-merge and pdf-combine are rivals by their words.
const cli = useEmbeddingsCli("skillset-doctor-embeddings-", (library) => {
  library.skill("interview-transcripts", undefined, "Transcribes recorded interviews into generated contracts.");
  library.skill("internet-transfers", undefined, "Transports recordkeeping internals through generous controllers.");
  library.skill("garden-planner", undefined, "Plans vegetable beds by season, soil and sunlight.");
  library.skill("pdf-merge", undefined, "Merge PDF files into one PDF document, keeping page order.");
  library.skill("pdf-combine", undefined, "Combine PDF files into one PDF document, in page order.");
});
const doctor = (...args: string[]) => runCli(["doctor", cli.library.root, "--no-threads", ...args], { env: cli.env() });

interface Finding {
  code: string;
  skill: string;
  related?: string;
  value?: number;
  message: string;
}
const rivals = (stdout: string) =>
  (JSON.parse(stdout) as { findings: Finding[] }).findings.filter((finding) => finding.code === "rival-skills");
const pairs = (stdout: string) => rivals(stdout).map((finding) => [finding.skill, finding.related]);

describe("skillset doctor --embeddings", { timeout: 60_000 }, () => {
  it("reports two skills that share no word as rivals only with --embeddings; a second run sends nothing", async () => {
    const lexical = await doctor("--json");
    expect(pairs(lexical.stdout)).toEqual([["pdf-combine", "pdf-merge"]]);
    expect(JSON.parse(lexical.stdout)).toMatchObject({ embeddings: { examined: false, reason: "no --embeddings" } });
    expect(cli.embeddings.requests).toEqual([]);

    const first = await doctor("--json", "--embeddings", SPEC);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(pairs(first.stdout)).toEqual([
      ["internet-transfers", "interview-transcripts"],
      ["pdf-combine", "pdf-merge"],
    ]);
    expect(JSON.parse(first.stdout)).toMatchObject({ embeddings: { examined: true, model: SPEC } });
    expect(rivals(first.stdout)[0]).toMatchObject({
      value: 0.917,
      message:
        "'internet-transfers' and 'interview-transcripts' describe the same job (embedding similarity 0.917): a model may load either for the other's requests",
    });
    // One request with the five skills' texts, as search_skills embeds them.
    expect(cli.embeddings.requests.map((request) => request.input.length)).toEqual([5]);
    expect(cli.embeddings.requests[0]!.input).toContain(
      "interview transcripts: Transcribes recorded interviews into generated contracts.",
    );
    expect(readdirSync(join(cli.cache, "skillset", "embeddings"))).toEqual([
      expect.stringMatching(/^openai-text-embedding-3-small-[0-9a-f]{12}\.vectors$/),
    ]);

    cli.embeddings.requests.length = 0;
    const second = await doctor("--json", "--embeddings", SPEC);
    expect(second.stdout).toBe(first.stdout);
    expect(cli.embeddings.requests).toEqual([]);
  });

  it("reads the vectors skillset search --embeddings cached: after a search, doctor sends no request", async () => {
    const search = await runCli(["search", "combine pdf files", cli.library.root, "--embeddings", SPEC, "--json"], {
      env: cli.env(),
    });
    expect(search.code).toBe(0);
    expect(cli.embeddings.requests.map((request) => request.input.length)).toEqual([5, 1]);
    cli.embeddings.requests.length = 0;
    const report = await doctor("--json", "--embeddings", SPEC);
    expect(pairs(report.stdout)).toEqual([
      ["internet-transfers", "interview-transcripts"],
      ["pdf-combine", "pdf-merge"],
    ]);
    expect(cli.embeddings.requests).toEqual([]);
  });

  it("when the provider fails, reports the lexical findings with one warning on stderr; --fail-on alone sets the exit code", async () => {
    cli.embeddings.failWith = 401;
    const report = await doctor("--json", "--embeddings", SPEC);
    expect(report.code).toBe(0);
    expect(pairs(report.stdout)).toEqual([["pdf-combine", "pdf-merge"]]);
    expect(report.stderr).toMatch(
      /^skillset: --embeddings openai:text-embedding-3-small failed \(.*The embeddings service is down\); rivals are found by words only\.\n$/,
    );
    expect(JSON.parse(report.stdout)).toMatchObject({
      ok: true,
      embeddings: { examined: false, model: SPEC, reason: expect.stringContaining("The embeddings service is down") },
    });

    const human = await doctor("--embeddings", SPEC, "--fail-on", "warning");
    expect(human.code).toBe(1);
    expect(human.stdout).toContain("warning rival-skills  pdf-combine\n");
    expect(human.stdout).toMatch(
      /\nRivals by meaning: not found \(.*The embeddings service is down\); by words only\n/,
    );
    expect(human.stdout).not.toContain("interview-transcripts\n  'internet-transfers' and");
    expect(human.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect((await doctor("--embeddings", SPEC, "--fail-on", "error")).code).toBe(0);
  });

  it("refuses a malformed spec as a usage error (exit 2) and a missing key (exit 1)", async () => {
    expect(await doctor("--embeddings", "openai")).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillset: --embeddings must be <provider>:<model>, e.g. openai:text-embedding-3-small (got 'openai')\n",
    });
    const noKey = await runCli(["doctor", cli.library.root, "--no-threads", "--embeddings", SPEC], {
      env: { XDG_CACHE_HOME: cli.cache },
    });
    expect(noKey).toMatchObject({
      code: 1,
      stdout: "",
      stderr: `skillset: OPENAI_API_KEY is not set: export your openai API key to use --embeddings ${SPEC}\n`,
    });
  });
});
