// The names people use for the file types and products that skills are named after. Applied to
// queries only: a query word (or phrase) of a group also looks for the group's other words, so
// "make a PowerPoint deck" reaches a skill named `pptx`; skills are indexed as they are written.
// Kept small and unambiguous: "word" alone is a common word, so only "word document" means docx.

/** Groups of words that name the same file type or product in a request. */
export const QUERY_ALIASES: ReadonlyArray<readonly string[]> = [
  ["pptx", "ppt", "powerpoint", "slides", "deck", "keynote", "presentation"],
  ["xlsx", "xls", "excel", "spreadsheet", "workbook"],
  ["docx", "word document", "word file", "word doc", "msword"],
  ["pdf", "acrobat"],
  ["csv", "tsv"],
  ["k8s", "kubernetes", "kubectl"],
  ["postgres", "postgresql", "psql"],
  ["javascript", "js", "node.js", "nodejs"],
  ["typescript", "ts"],
  ["nextjs", "next.js"],
  ["a11y", "accessibility", "wcag"],
  ["web", "website", "webpage", "web page", "web site"],
  ["github", "gh"],
  ["pr", "pull request"],
  ["ci", "continuous integration"],
  ["llm", "large language model"],
  ["jupyter", "ipynb"],
];
