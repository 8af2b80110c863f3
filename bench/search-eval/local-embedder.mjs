// A deterministic local embedder for the hybrid figures of bench/search-eval: no model, no
// network. Each text becomes a hashed bag of its words and of their character trigrams (so
// "accessible" and "accessibility" share most features), signed and L2-normalised. It is not a
// semantic model: it measures the plumbing (fusion, cache) and what fuzzy matching adds, not what
// a real embedding model would give.

/** `(texts) => vectors` of `dimensions` numbers, the same vector for the same text on every run. */
export function localEmbedder(dimensions = 512) {
  return async (texts) => texts.map((text) => embed(text, dimensions));
}

function embed(text, dimensions) {
  const vector = new Float64Array(dimensions);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    add(vector, `w:${word}`, 1);
    const padded = `#${word}#`;
    for (let index = 0; index + 3 <= padded.length; index++) add(vector, `t:${padded.slice(index, index + 3)}`, 0.5);
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return Array.from(vector, (value) => value / norm);
}

// FNV-1a: the low bits choose the dimension, the top bit the sign, so collisions cancel out on average.
function add(vector, feature, weight) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < feature.length; index++) hash = Math.imul(hash ^ feature.charCodeAt(index), 0x01000193);
  hash >>>= 0;
  vector[hash % vector.length] += hash & 0x80000000 ? -weight : weight;
}
