/**
 * `npx tsx bench/redaction.ts`: what main's key search costs (docs/decisions/secret-matching.md).
 * Prints, for a page of 50 real-world transactions as JSON (what the bridge checks per answer)
 * and for a 10 MB text made of such pages (a large export at the file exit check):
 *
 *   redaction text=page chars=… contains_ms=… redact_with_key_ms=…
 *
 * - contains_ms: `Redactor.contains` on the text without the key (the common case), mean of runs.
 * - redact_with_key_ms: `Redactor.redact` on the text with the key hidden in one name by a
 *   zero-width space (the search, then the pass that maps the match back and replaces it).
 *
 * Options: --runs N (20).
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { fixtureDir } from '@shared/testing/blockscout-fixtures'
import { Redactor } from '../src/main/core/util/logger'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } } })
const runs = Math.max(1, Number(values.runs))
const KEY = 'e2e_5f0c9a77b3d24e81aa06'

const fixture = JSON.parse(readFileSync(`${fixtureDir()}/transactions.json`, 'utf8')) as {
  items: { item: unknown }[]
}
const page = JSON.stringify({
  items: Array.from({ length: 50 }, (_, i) => fixture.items[i % fixture.items.length]!.item),
})
const texts = { page, '10mb': page.repeat(Math.ceil(10_000_000 / page.length)) }

const redactor = new Redactor()
redactor.add(KEY)
const mean = (fn: () => void, n: number): number => {
  const start = performance.now()
  for (let i = 0; i < n; i++) fn()
  return (performance.now() - start) / n
}

for (const [name, text] of Object.entries(texts)) {
  const n = name === 'page' ? runs : Math.max(1, Math.round(runs / 10))
  const withKey = `${text.slice(0, 1000)}"name":"${KEY.slice(0, 7)}\u200B${KEY.slice(7)}"${text.slice(1000)}`
  if (redactor.contains(text) || !redactor.contains(withKey)) throw new Error('the bench texts are not what they say')
  const contains = mean(() => redactor.contains(text), n)
  const redact = mean(() => redactor.redact(withKey), n)
  console.log(
    `redaction text=${name} chars=${text.length} contains_ms=${contains.toFixed(2)} redact_with_key_ms=${redact.toFixed(2)}`,
  )
}
