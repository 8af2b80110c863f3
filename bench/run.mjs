// `npm run bench`: runs every benchmark table and prints it as Markdown.
import { aiSdkTable } from "./ai-sdk.mjs";
import { catalogCoverageTable } from "./catalog-coverage.mjs";
import { codeModeTable } from "./code-mode.mjs";
import { codeSandboxTable } from "./code-sandbox.mjs";
import { CORPUS_ROOT, hasCorpus } from "./contenders.mjs";
import { discoveryTable } from "./discovery.mjs";
import { forkTable } from "./fork.mjs";
import { hybridSearchTable } from "./hybrid-search.mjs";
import { libraryTable } from "./library.mjs";
import { lockfileTable } from "./lockfile.mjs";
import { loadTable, postgresAnswers } from "./load.mjs";
import { middlewareTable } from "./middleware.mjs";
import { mcpTable } from "./mcp.mjs";
import { scaleTable } from "./scale.mjs";
import { searchQualityTable } from "./search-quality.mjs";
import { skillToolsTable } from "./skill-tools.mjs";
import { formatTable } from "./stats.mjs";
import { textProtocolTable } from "./text-protocol.mjs";
import { tokenCountTable } from "./token-count.mjs";

// Add new tables here: each is an async function returning { title, rows, notes }. Without the
// shared corpus (a user's clone), Discovery runs on the generated library only, and Middleware,
// which measures tokens, prompt caching and checkpoints on the corpus, and Search quality are skipped.
const corpus = hasCorpus();
const TABLES = corpus
  ? [
      discoveryTable,
      middlewareTable,
      aiSdkTable,
      libraryTable,
      searchQualityTable,
      mcpTable,
      textProtocolTable,
      skillToolsTable,
      forkTable,
      lockfileTable,
    ]
  : [discoveryTable, aiSdkTable, libraryTable, mcpTable, textProtocolTable, skillToolsTable, forkTable, lockfileTable];
// Search by meaning measures the vector cache everywhere, and quality only on the corpus;
// Catalog over budget needs the corpus's requests.
TABLES.push(hybridSearchTable, codeModeTable, codeSandboxTable, tokenCountTable);
if (corpus) TABLES.push(catalogCoverageTable);
if (!corpus)
  console.log(
    `Skipped: the Discovery rows on the real-skills corpus and the Middleware, Search quality and Catalog over budget tables, because there is no corpus at ${CORPUS_ROOT} (the project's ../shared folder).\n`,
  );
// Every path at 10,000 and 100,000 generated skills (about a minute and a half; generating the
// 100,000-skill library the first time adds about a minute and 1.3 GB in the temp folder).
TABLES.push(scaleTable);
// Load needs a PostgreSQL server (SKILLSET_TEST_PG_URL, as the tests); it runs for minutes.
if (await postgresAnswers()) TABLES.push(loadTable);
else console.log("Skipped: the Load table, because no PostgreSQL server answers (set SKILLSET_TEST_PG_URL).\n");

for (const table of TABLES) {
  const { title, rows, notes } = await table();
  console.log([`## ${title}`, "", formatTable(rows), ...notes, ""].join("\n"));
}
