import type { SearchHit, SearchMatch } from '@shared/bridge/contract'

/**
 * How the one search box orders and explains its hits (issue 39 item 4): the user's labels and
 * watch entries, then addresses, then notes, then transactions — a search for "Router" gives the
 * Router address before the twenty transactions that mention a router. Within a kind the
 * index's own score decides (docs/decisions/search-ranking.md).
 */
const KIND_RANK: Record<SearchHit['kind'], number> = {
  label: 0,
  'watch-entry': 1,
  address: 2,
  note: 3,
  transaction: 4,
}

const kindRank = (kind: SearchHit['kind']): number => KIND_RANK[kind] ?? 5

/** Sorts `[id, score, kind]` triples: kind first, then the higher score; ties keep their order. */
export function byKindThenScore<T extends [string, number, SearchHit['kind']]>(scored: T[]): T[] {
  return scored
    .map((s, i) => ({ s, i }))
    .sort((a, b) => kindRank(a.s[2]) - kindRank(b.s[2]) || b.s[1] - a.s[1] || a.i - b.i)
    .map((x) => x.s)
}

const tokens = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[\s\p{P}\p{S}]+/u)
    .filter(Boolean)

/** What an item the index gave for the query holds that matched (shown beside the hit). */
export function matchedBy(
  doc: Pick<SearchHit, 'kind' | 'hash' | 'title'>,
  words: { hex: readonly string[]; text: readonly string[] },
): SearchMatch[] {
  const out: SearchMatch[] = []
  if (words.hex.length) {
    const byHash = doc.hash !== null && words.hex.some((w) => doc.hash!.startsWith(w))
    out.push(byHash ? 'tx hash' : 'address')
  }
  if (words.text.length) out.push(textMatch(doc, words.text))
  return out
}

function textMatch(doc: Pick<SearchHit, 'kind' | 'title'>, words: readonly string[]): SearchMatch {
  switch (doc.kind) {
    case 'label':
    case 'watch-entry': {
      // The title starts with the label; the rest of the text is its note, tags and list.
      const title = tokens(doc.title)
      return words.every((w) => title.some((t) => t.startsWith(w))) ? 'label' : 'note'
    }
    case 'note':
      return 'note'
    case 'address':
      return 'token'
    default:
      return 'name, method or token'
  }
}
