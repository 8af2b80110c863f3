// Text analysis for the lexical index: how a name, a description or a query becomes the words
// the index compares. Query and skills must go through the same function, or they never meet.
// Stems are Porter2's (the Snowball English stemmer), so "accessible" meets "accessibility" and
// "deploying" meets "deployment", while "general" and "generate" stay apart.
import porter2 from "wink-porter2-stemmer";

// Words that say nothing about which skill is meant. Kept short: in skill descriptions, words
// like "create", "file" or "test" do carry meaning.
const STOP_WORDS = new Set(
  "a an and are as at be but by can could do does for from have help how i in into is it its me my of on or our please should so that the their them then there these this to use used using want was we what when where which while who why will with would you your".split(
    " ",
  ),
);

// Words repeat across a library: each is stemmed once (bounded, so odd input cannot grow it).
const stemmed = new Map<string, string | null>();
const MAX_STEMMED = 100_000;

/** The words of a text as the index keeps them: lower case, split at anything but letters and digits, no stop words, stemmed. */
export function searchTerms(text: string): string[] {
  const words: string[] = [];
  for (const raw of searchWords(text)) {
    const word = searchTerm(raw);
    if (word !== null) words.push(word);
  }
  return words;
}

/**
 * The first step of {@link searchTerms}: the text in lower case, split at anything but letters
 * and digits (empty strings may come out; they are no words). An index that meets the same words
 * again and again can remember {@link searchTerm} of each.
 */
export function searchWords(text: string): string[] {
  const lower = text.toLowerCase();
  // The Unicode-aware split is several times slower; most descriptions are ASCII.
  return lower.split(/^[ -~\t\n\r]*$/.test(lower) ? /[^a-z0-9]+/ : /[^\p{L}\p{N}]+/u);
}

/** The second step of {@link searchTerms}: one word of {@link searchWords} as the index keeps it, or null (a stop word, or empty). */
export function searchTerm(raw: string): string | null {
  if (raw === "") return null;
  let word = stemmed.get(raw);
  if (word === undefined) {
    word = STOP_WORDS.has(raw) ? null : stem(raw);
    if (stemmed.size < MAX_STEMMED) stemmed.set(raw, word);
  }
  return word;
}

// Words with digits are names (h5ad, es2022, k8s): kept whole. Porter2 keeps the "s" of a word
// without vowels, so the plural of an acronym ("pdfs", "csvs", "urls") loses it here.
function stem(word: string): string {
  if (/\d/.test(word)) return word;
  if (word.length > 3 && word.endsWith("s") && !/[aeiouy]/.test(word.slice(0, -1))) return word.slice(0, -1);
  return porter2(word);
}
