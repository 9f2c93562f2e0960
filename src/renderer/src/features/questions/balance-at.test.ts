import { describe, expect, it } from 'vitest'
import { NATIVE } from '@shared/domain/movements'
import { balanceHistory } from '../analysis'
import { balanceAtDay, cutAfter } from './balance-at'
import { fixtureTransactions } from '../../testing/transaction-fixtures'

const { address: ME, byId, items } = fixtureTransactions()
const ARIA = '0x55d536e4d6c1993d8ef2e2a4ef77f02088419420'
const NOW_MS = Date.UTC(2026, 0, 1)
const COIN_NOW = 1000n * 10n ** 18n
const ARIA_NOW = 10n ** 18n
const now = [
  { key: NATIVE, symbol: 'coin', decimals: 18, value: COIN_NOW },
  { key: ARIA, symbol: 'ARIA', decimals: 18, value: ARIA_NOW },
]
const valueOf = (r: ReturnType<typeof balanceAtDay>, key: string): bigint | null | undefined =>
  r.assets.find((a) => a.key === key)?.value

describe('balance at the end of a day, on the Blockscout items', () => {
  const all = balanceHistory(items, ME, now, NOW_MS)

  it('walks back from today by hand: the 11-11 receipt, then the 10-10 day', () => {
    // After the last transaction: today's balances.
    const after = balanceAtDay(all, '2022-11-11', true)
    expect(after.sureness).toBe('complete')
    expect(valueOf(after, NATIVE)).toBe(COIN_NOW)
    // Before 11-11: its 42.00042 coin received is undone.
    const before = balanceAtDay(all, '2022-11-10', true)
    expect(valueOf(before, NATIVE)).toBe(957_999_580_000_000_000_000n)
    expect(valueOf(balanceAtDay(all, '2022-10-10', true), NATIVE)).toBe(957_999_580_000_000_000_000n)
    // Before 10-10: 13 receipts of 42 (the 2 failed ones moved nothing), the contract creation
    // sent 42 and a fee, the 2 self-transfers cost their fees: 3 fees of 0.007143168.
    const first = balanceAtDay(all, '2022-10-09', true)
    expect(valueOf(first, NATIVE)).toBe(
      957_999_580_000_000_000_000n - 546n * 10n ** 18n + 42n * 10n ** 18n + 3n * 7_143_168_000_000_000n,
    )
    expect(valueOf(first, NATIVE)).toBe(454_021_009_504_000_000_000n)
    // ARIA: 0.03156737370313035 was sent on 10-10; the other transfers are between others.
    expect(valueOf(first, ARIA)).toBe(1_031_567_373_703_130_350n)
    expect(valueOf(before, ARIA)).toBe(ARIA_NOW)
    expect(first.assets.map((a) => a.key).sort()).toEqual([ARIA, NATIVE].sort())
  })

  it('with only the newest page loaded: exact back to its oldest transaction, and nothing guessed before', () => {
    const newest = balanceHistory([byId.get('TX')!], ME, now, NOW_MS)
    const day = balanceAtDay(newest, '2022-11-11', false)
    expect(day.sureness).toBe('complete')
    expect(day.completeFromMs).toBe(Date.UTC(2022, 10, 11, 11, 11, 11))
    expect(valueOf(day, NATIVE)).toBe(COIN_NOW)
    const older = balanceAtDay(newest, '2022-11-10', false)
    expect(older.sureness).toBe('partial')
    expect(older.assets.every((a) => a.value === null)).toBe(true)
    // Had that been every page, the day before is simply before the first transaction.
    expect(valueOf(balanceAtDay(newest, '2022-11-10', true), NATIVE)).toBe(957_999_580_000_000_000_000n)
  })

  it('says the day ends at midnight UTC', () => {
    expect(balanceAtDay(all, '2022-10-10', true).atMs).toBe(Date.UTC(2022, 9, 11))
  })

  it('counts the transactions after the day whose transfers the service cut', () => {
    // withTokenTransfer (2022-10-10) lists only its first transfers; pending ones count as later.
    expect(cutAfter(items, Date.UTC(2022, 9, 10) - 1)).toBe(1)
    expect(cutAfter(items, Date.UTC(2022, 9, 11) - 1)).toBe(0)
  })
})
