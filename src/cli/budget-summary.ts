import type { RenderedCatalog } from "../core/catalog/render-catalog.js";

/** One line on where a catalog over its budget put the skills, for `prompt --tokens` and `list`. */
export function budgetSummary(catalog: RenderedCatalog, budget: number): string {
  const count = (value: number) => value.toLocaleString("en-US");
  return (
    `Over the catalog budget of ${count(budget)} tokens: ${count(catalog.full.length)} whole, ${count(catalog.short.length)} shortened, ` +
    `${count(catalog.named.length)} by name only, ${count(catalog.hidden.length)} left out (search_skills finds them); the catalog takes ${count(catalog.tokens)} tokens.`
  );
}
