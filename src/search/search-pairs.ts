import type BetterSqlite3 from 'better-sqlite3';

/**
 * SQLite's word pairs (migration 0018, docs/architecture.md#search): the same words and pairs as
 * PostgreSQL's `ticket_search_pair_keys` (0017). A word is a run of letters and digits (`\p{L}`,
 * `\p{N}`) of the lower-cased text, and a text's pairs are each two adjacent words of one column.
 * The text is lower-cased as the search's recheck folds it (`toLowerCase()`, search.ts), so a term
 * whose lower-cased form is a substring of a column's lower-cased text has each of its inner pairs
 * (pairs of words that the term itself bounds on both sides: `termPairs`) among that column's.
 *
 * Each pair is stored as a hash (`pairHash`): a collision makes an absent pair look present, which
 * only lets the search go on to the trigram index and its recheck, never loses a match. The hash is
 * stored on disk, so **it must never change** (a change would need the table rebuilt, as 0018's up).
 */

const WORDS = /[\p{L}\p{N}]+/gu;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * A pair's 53-bit hash (a safe integer, stored as SQLite INTEGER): two 32-bit FNV-1a lanes over the
 * UTF-16 code units of `first + ' ' + second`, each finished by murmur3's mix, 21 bits of one above
 * the 32 of the other.
 */
export function pairHash(first: string, second: string): number {
  const text = `${first} ${second}`;
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  a = fmix(a);
  b = fmix(b ^ text.length);
  return (b >>> 11) * 4294967296 + (a >>> 0);
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The distinct pair hashes of one column's text, added to `into`. */
function addTextPairs(text: unknown, into: Set<number>): void {
  if (typeof text !== 'string' || text.length === 0) return;
  const words = text.toLowerCase().match(WORDS);
  if (!words) return;
  for (let i = 1; i < words.length; i++) into.add(pairHash(words[i - 1]!, words[i]!));
}

/** The distinct pair hashes of a row's searched columns (each column's pairs; none across columns). */
export function rowPairs(...columns: unknown[]): Set<number> {
  const pairs = new Set<number>();
  for (const column of columns) addTextPairs(column, pairs);
  return pairs;
}

/**
 * The pairs a text must hold to contain `term` (already lower-cased, as the recheck tests it): the
 * pairs of adjacent words of the term whose words are whole where the term occurs. Its first word
 * is whole only if a character that is not a letter or digit comes before it within the term (it
 * may otherwise be the end of a longer word in the text: `lease process` is in `please process`),
 * and its last only if one comes after it. So PostgreSQL's `ticket_search_pair_keys(..., true)`,
 * which drops the pairs of the first and last elements of `regexp_split_to_array`.
 */
export function termPairs(foldedTerm: string): number[] {
  const words = foldedTerm.match(WORDS);
  if (!words || words.length < 2) return [];
  const wholeFirst = !WORD_CHAR.test(firstChar(foldedTerm));
  const wholeLast = !WORD_CHAR.test(lastChar(foldedTerm));
  const pairs = new Set<number>();
  for (let i = 1; i < words.length; i++) {
    if (i === 1 && !wholeFirst) continue;
    if (i === words.length - 1 && !wholeLast) continue;
    pairs.add(pairHash(words[i - 1]!, words[i]!));
  }
  return [...pairs];
}

const firstChar = (s: string): string => String.fromCodePoint(s.codePointAt(0)!);
const lastChar = (s: string): string => {
  const last = s.charCodeAt(s.length - 1);
  // A low surrogate ends a character of two code units.
  return last >= 0xdc00 && last <= 0xdfff && s.length > 1 ? s.slice(-2) : s.slice(-1);
};

/**
 * What a write changes in a row's pairs, as JSON arrays of pair hashes (integers, as `json_each`
 * reads them): `added`, the pairs its new text has and its old had not; `removed`, those it had and
 * has no more (a null text has no pairs: an insert passes nulls as the old text, a delete as the
 * new). A patch that leaves the text as it was changes nothing. The triggers of 0018 call it
 * through `search_pairs_added(old_a, old_b, new_a, new_b)` and `search_pairs_removed(...)`.
 */
export function pairChanges(oldA: unknown, oldB: unknown, newA: unknown, newB: unknown): { added: string; removed: string } {
  const args = [oldA, oldB, newA, newB];
  // A trigger asks for the same change up to three times (removed pairs twice, added once).
  if (!last || last.args.some((v, i) => v !== args[i])) {
    const before = rowPairs(oldA, oldB);
    const after = rowPairs(newA, newB);
    last = { args, added: JSON.stringify([...after].filter((p) => !before.has(p))), removed: JSON.stringify([...before].filter((p) => !after.has(p))) };
  }
  return last;
}
let last: { args: unknown[]; added: string; removed: string } | undefined;

/**
 * Registers what the word pairs' triggers call (migration 0018) on a connection. **Every connection
 * that writes tickets or customers must** (openStore does): without it such a write fails with
 * "no such function: search_pairs_added" rather than leaving the pairs behind. Scalar functions
 * returning JSON rather than a table-valued function: 17 µs against 27 µs for a trigger adding 25
 * pairs (in memory), better-sqlite3's virtual tables costing a call into JavaScript per row.
 */
export function registerSearchPairs(database: BetterSqlite3.Database): void {
  database.function('search_pairs_added', { deterministic: true }, (a, b, c, d) => pairChanges(a, b, c, d).added);
  database.function('search_pairs_removed', { deterministic: true }, (a, b, c, d) => pairChanges(a, b, c, d).removed);
}
