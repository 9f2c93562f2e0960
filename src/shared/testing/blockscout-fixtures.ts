/// <reference types="node" />
// Test support only (Vitest runs in Node for both projects); never imported by app code.
// eslint-disable-next-line chainscope/layers
import { readFileSync } from 'node:fs'
// eslint-disable-next-line chainscope/layers
import { join, resolve } from 'node:path'

/**
 * The real-world items of shared/fixtures/blockscout (Blockscout's own engineers' data), for
 * tests only. CHAINSCOPE_FIXTURES points elsewhere (default /work/shared/fixtures/blockscout,
 * else ../shared/fixtures/blockscout from the repository).
 */
export interface FixtureFile {
  address: string
  items: { id: string; item: unknown }[]
}

export function fixtureDir(): string {
  const candidates = [
    process.env.CHAINSCOPE_FIXTURES,
    '/work/shared/fixtures/blockscout',
    resolve(import.meta.dirname, '../../../../shared/fixtures/blockscout'),
  ]
  for (const dir of candidates) {
    if (!dir) continue
    try {
      readFileSync(join(dir, 'transactions.json'))
      return dir
    } catch {
      // next
    }
  }
  throw new Error('the Blockscout fixtures were not found: set CHAINSCOPE_FIXTURES')
}

export function readFixture(name: 'transactions' | 'balances'): FixtureFile {
  const parsed: unknown = JSON.parse(readFileSync(join(fixtureDir(), `${name}.json`), 'utf8'))
  if (
    !parsed ||
    typeof parsed !== 'object' ||
    !('address' in parsed) ||
    !('items' in parsed) ||
    typeof parsed.address !== 'string' ||
    !Array.isArray(parsed.items)
  ) {
    throw new Error(`${name}.json is not an item file`)
  }
  const items = parsed.items.map((i: unknown) => {
    if (!i || typeof i !== 'object' || !('id' in i) || !('item' in i) || typeof i.id !== 'string')
      throw new Error(`${name}.json: an entry without id/item`)
    return { id: i.id, item: i.item }
  })
  return { address: parsed.address, items }
}

/** A deep copy, so a test can break an item without touching the others. */
export const clone = <T>(v: T): T => structuredClone(v)
