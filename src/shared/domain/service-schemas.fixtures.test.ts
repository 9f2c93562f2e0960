import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readFixture } from '../testing/blockscout-fixtures'
import {
  balanceItemSchema,
  balancesResponseSchema,
  transactionSchema,
  transactionsResponseSchema,
} from './service-schemas'

const txs = readFixture('transactions')
const bals = readFixture('balances')

describe('real-world (Blockscout) items parse one by one', () => {
  it.each(txs.items.map((i) => [i.id, i.item] as const))('transaction %s', (_id, item) => {
    const r = transactionSchema.safeParse(item)
    expect(r.success, JSON.stringify(r.error?.issues.slice(0, 2))).toBe(true)
  })

  it.each(bals.items.map((i) => [i.id, i.item] as const))('balance %s', (_id, item) => {
    const r = balanceItemSchema.safeParse(item)
    expect(r.success, JSON.stringify(r.error?.issues.slice(0, 2))).toBe(true)
  })

  it('reads the whole page: 20 of 20 transactions, 16 of 16 balances, none unreadable', () => {
    const t = transactionsResponseSchema.parse({ items: txs.items.map((i) => i.item), next_page_params: null })
    expect([t.items.length, t.unreadable.length]).toEqual([20, 0])
    const b = balancesResponseSchema.parse({ items: bals.items.map((i) => i.item), next_page_params: null })
    expect([b.items.length, b.unreadable.length]).toEqual([16, 0])
  })

  it('still refuses a broken envelope (items not a list)', () => {
    expect(transactionsResponseSchema.safeParse({ items: {}, next_page_params: null }).success).toBe(false)
    expect(balancesResponseSchema.safeParse({ next_page_params: null }).success).toBe(false)
  })

  it('names the failing field of an unreadable item and keeps it raw', () => {
    const items = txs.items.map((i) => structuredClone(i.item))
    const at = txs.items.findIndex((i) => i.id === 'withTokenTransfer')
    const broken = items[at]
    if (
      !broken ||
      typeof broken !== 'object' ||
      !('token_transfers' in broken) ||
      !Array.isArray(broken.token_transfers)
    )
      throw new Error('fixture changed')
    broken.token_transfers[1] = { ...broken.token_transfers[1], total: 'lots' }
    const t = transactionsResponseSchema.parse({ items, next_page_params: null })
    expect(t.items).toHaveLength(19)
    expect(t.unreadable).toEqual([expect.objectContaining({ index: at, path: 'token_transfers.1.total', raw: broken })])
  })
})

/** The ways a real service breaks an item: a field null, a wrong type, removed, an unknown shape. */
const breakage = fc.constantFrom('null', 'number', 'remove', 'shape')
/** Fields every readable transaction needs: breaking any of them makes the item unreadable. */
const TX_FIELDS = [
  'hash',
  'from',
  'value',
  'fee',
  'gas_limit',
  'nonce',
  'raw_input',
  'tx_types',
  'result',
  'confirmations',
] as const
const BAL_FIELDS = ['token', 'value'] as const

function breakItem(item: unknown, field: string, how: string): unknown {
  if (!item || typeof item !== 'object') throw new Error('not an object')
  const copy: Record<string, unknown> = { ...item }
  if (how === 'null') copy[field] = null
  else if (how === 'number') copy[field] = field === 'nonce' || field === 'confirmations' ? 'many' : 42
  else if (how === 'remove') delete copy[field]
  else copy[field] = { unexpected: [field] }
  return copy
}

describe('one broken item never hides the others (property)', () => {
  it('transactions: every other item is read, the broken one is counted with its path', () => {
    fc.assert(
      fc.property(fc.nat(txs.items.length - 1), fc.constantFrom(...TX_FIELDS), breakage, (index, field, how) => {
        const raw = txs.items.map((i, k) => (k === index ? breakItem(i.item, field, how) : i.item))
        const page = transactionsResponseSchema.parse({ items: raw, next_page_params: null })
        expect(page.items).toHaveLength(txs.items.length - 1)
        expect(page.unreadable).toHaveLength(1)
        expect(page.unreadable[0]!.index).toBe(index)
        expect(page.unreadable[0]!.path.split('.')[0]).toBe(field)
        expect(page.unreadable[0]!.raw).toBe(raw[index])
      }),
      { numRuns: 200 },
    )
  })

  it('balances: the same', () => {
    fc.assert(
      fc.property(fc.nat(bals.items.length - 1), fc.constantFrom(...BAL_FIELDS), breakage, (index, field, how) => {
        const raw = bals.items.map((i, k) => (k === index ? breakItem(i.item, field, how) : i.item))
        const page = balancesResponseSchema.parse({ items: raw, next_page_params: null })
        expect(page.items).toHaveLength(bals.items.length - 1)
        expect(page.unreadable.map((u) => u.index)).toEqual([index])
      }),
      { numRuns: 100 },
    )
  })
})
