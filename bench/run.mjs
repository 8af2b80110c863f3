// `npm run bench`: runs every benchmark table and prints it as Markdown.
import { discoveryTable } from "./discovery.mjs";
import { middlewareTable } from "./middleware.mjs";
import { formatTable } from "./stats.mjs";

// Add new tables here: each is an async function returning { title, rows, notes }.
const TABLES = [discoveryTable, middlewareTable];

for (const table of TABLES) {
  const { title, rows, notes } = await table();
  console.log([`## ${title}`, "", formatTable(rows), ...notes, ""].join("\n"));
}
