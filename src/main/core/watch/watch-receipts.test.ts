import { describe, expect, it } from 'vitest'
import type { TransactionsPage } from '@shared/bridge/contract'
import type { BalanceItem, Transaction } from '@shared/domain/service-schemas'
import { readFixture } from '@shared/testing/blockscout-fixtures'
import { FakeChain } from '../testing/fake-chain'
import { runWatchCheck } from './watch-check'
import type { CheckRuntime } from './watch-spend'
import type { ProfileWatchState } from './watch-state'
import { balanceDeltas, snapshotOf, tokenTotals } from './watch-tokens'

/**
 * A token received is listed by a Blockscout-shaped service under the token transfers, not
 * under the receiver's transactions (its list holds what it sent or received as a
 * transaction's `from`/`to`): a check that read transaction lists would miss it. The fixture
 * is Blockscout's own (shared/fixtures/blockscout): `withTokenTransfer` moves ARIA (ERC-20)
 * from the file's address to 0x7d20…, a party to no transaction of the file.
 */
const transactions = readFixture('transactions')
const all = transactions.items.map((i) => i.item as Transaction)
const carrier = transactions.items.find((i) => i.id === 'withTokenTransfer')!.item as Transaction
const receipt = carrier.token_transfers!.find((t) => t.token.type === 'ERC-20')!
const receiver = receipt.to.hash.toLowerCase()
const amount = (receipt.total as { value: string }).value

/** An address's transactions as Blockscout lists them: those it is the `from` or `to` of. */
const listOf = (address: string): Transaction[] =>
  all.filter((tx) => tx.from.hash.toLowerCase() === address || tx.to?.hash.toLowerCase() === address)

const filler = (i: number): string => `0x${(0xf000 + i).toString(16).padStart(40, '0')}`

describe('token receipts on a Blockscout-shaped service', () => {
  it("the fixture's ERC-20 receipt is absent from the receiver's transactions list", () => {
    expect(listOf(transactions.address.toLowerCase()).map((tx) => tx.hash)).toContain(carrier.hash)
    expect(listOf(receiver).map((tx) => tx.hash)).not.toContain(carrier.hash)
  })

  it('a week away billed per call marks the receiver with the delta from its balances answer, not from its list', async () => {
    const chain = new FakeChain(1000, 1000)
    const runtime = chain.runtime({ billing: 'call-plus-batch', batchCap: 50 })
    let received = false
    const pages: string[] = []
    runtime.data.transactions = async (req: { address: string }) => {
      pages.push(req.address)
      return { items: listOf(req.address), nextCursor: null, unreadable: [] } as unknown as TransactionsPage
    }
    const fetched = runtime.data.balances
    runtime.data.balances = async (req: { address: string }) => {
      const answer = await fetched(req)
      const aria: BalanceItem = { token: receipt.token, token_id: null, value: amount }
      return req.address === receiver && received ? { ...answer, items: [...answer.items, aria] } : answer
    }
    const state: ProfileWatchState = { periodic: false, budgetFraction: 0.05, networks: {}, addresses: {} }
    const targets = [receiver, ...Array.from({ length: 49 }, (_, i) => filler(i))].map((address) => ({
      network: 'n',
      address,
    }))
    const options = { priority: 'user' as const, now: () => 0, headOf: () => chain.head, logCap: () => chain.cap }
    await runWatchCheck(runtime as unknown as CheckRuntime, state, targets, options)
    chain.head += 300_000
    received = true
    pages.length = 0
    const result = await runWatchCheck(runtime as unknown as CheckRuntime, state, targets, options)
    expect(result.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual([receiver])
    expect(result.statuses.find((s) => s.address === receiver)!.deltas).toEqual([
      expect.objectContaining({ token: receipt.token.address.toLowerCase(), standard: 'erc20', delta: amount }),
    ])
    // Its list (empty: no transaction of the fixture names it) was asked only after it was marked, for its news.
    expect(pages).toEqual([receiver])
  })

  it('sums ERC-721 items and ERC-1155 ids per token, as a provider may list one item per id or one per collection', () => {
    const items = readFixture('balances').items.map((i) => i.item as BalanceItem)
    const totals = tokenTotals(items)
    const erc1155 = items.filter((i) => i.token.type === 'ERC-1155' && i.token.address === items[11]!.token.address)
    expect(erc1155.length).toBeGreaterThan(1)
    expect(totals.get(`erc1155|${items[11]!.token.address.toLowerCase()}`)).toBe(
      erc1155.reduce((n, i) => n + BigInt(i.value), 0n),
    )
    // Nothing moved: no delta; one item gone: its value, negative.
    expect(balanceDeltas(snapshotOf(totals), totals).size).toBe(0)
    const less = tokenTotals(items.slice(1))
    expect(balanceDeltas(snapshotOf(totals), less)).toEqual(
      new Map([[`erc20|${items[0]!.token.address.toLowerCase()}`, -BigInt(items[0]!.value)]]),
    )
  })
})
