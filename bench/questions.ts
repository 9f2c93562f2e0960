/**
 * The address page's filters, token transfers and balance at a date over 100,000 loaded
 * transactions, measured in Node on generated items of the service's shape. Run with
 * `npx tsx --tsconfig tsconfig.bench.json bench/questions.ts [--txs N]`. Prints one line:
 *
 *   questions: txs=100000 keys_cold_ms=… token_ms=… party_ms=… dates_ms=… all_ms=… choices_first_ms=… choices_ms=…
 *     transfers_ms=… transfers_sorted_ms=… balance_at_ms=…
 *
 * keys_cold_ms: the first filter, which works out each transaction's lowercase keys once;
 * choices_first_ms: the pickers' first count over the list (later pages add only their tail);
 * the others: median of 7 runs after 2 warm-ups. Target: ≤ 100 ms each.
 */
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import type { Transaction } from '@shared/domain/service-schemas'
import { makeTx, party } from '@shared/testing/service-samples'
import { NATIVE } from '@shared/domain/movements'
import { balanceHistory } from '../src/renderer/src/features/analysis/balance-history'
import { filterByQuestions, NO_FILTERS } from '../src/renderer/src/features/questions/address-filters'
import { filterChoices } from '../src/renderer/src/features/questions/filter-choices'
import { balanceAtDay } from '../src/renderer/src/features/questions/balance-at'
import { sortTransfers, transferRows } from '../src/renderer/src/features/questions/transfer-rows'

const { values } = parseArgs({ options: { txs: { type: 'string', default: '100000' } } })
const TXS = Number(values.txs)
const ME = `0x${'ab'.repeat(20)}`
const who = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`
const TOKENS = [
  { address: who(0xc0), symbol: 'USDC', name: 'USD Coin', decimals: '6', type: 'ERC-20' },
  { address: who(0xc1), symbol: 'WETH', name: 'Wrapped Ether', decimals: '18', type: 'ERC-20' },
  { address: who(0xc2), symbol: 'ART', name: 'Art', decimals: null, type: 'ERC-721' },
]

function item(i: number): Transaction {
  const other = who(1 + (i % 1000))
  const out = i % 2 === 0
  const token = TOKENS[i % 3]!
  return makeTx(i, {
    from: party(out ? ME : other),
    to: party(out ? other : ME),
    value: String(10n ** 17n + BigInt(i)),
    token_transfers:
      i % 3 === 0
        ? [
            {
              from: party(out ? ME : other),
              to: party(out ? other : ME),
              token,
              total:
                token.decimals === null
                  ? { token_id: String(i) }
                  : { value: String(1_000_000 + i), decimals: token.decimals },
              type: 'token_transfer',
            },
          ]
        : null,
  })
}

/** Median of 7 timed runs after 2 untimed ones. */
function median(run: () => unknown): number {
  run()
  run()
  const times = Array.from({ length: 7 }, () => {
    const start = performance.now()
    run()
    return performance.now() - start
  })
  return times.sort((a, b) => a - b)[3]!
}

const items = Array.from({ length: TXS }, (_, i) => item(i))
const ms = (v: number): string => v.toFixed(1)
const t0 = performance.now()
filterByQuestions(items, ME, { ...NO_FILTERS, token: TOKENS[0]!.address })
const cold = performance.now() - t0
const party7 = who(8)
const day = new Date(Date.UTC(2026, 0, 1) - (TXS / 2) * 60_000).toISOString().slice(0, 10)
const out: Record<string, string> = { txs: String(TXS), keys_cold_ms: ms(cold) }
out.token_ms = ms(median(() => filterByQuestions(items, ME, { ...NO_FILTERS, token: TOKENS[1]!.address })))
out.party_ms = ms(median(() => filterByQuestions(items, ME, { ...NO_FILTERS, party: party7 })))
out.dates_ms = ms(median(() => filterByQuestions(items, ME, { ...NO_FILTERS, fromDay: day, toDay: day })))
out.all_ms = ms(
  median(() =>
    filterByQuestions(items, ME, { token: TOKENS[0]!.address, party: party7, fromDay: '2025-01-01', toDay: day }),
  ),
)
const c0 = performance.now()
filterChoices(items, ME)
out.choices_first_ms = ms(performance.now() - c0)
// Again on the same list: only the sort, as when one more page arrives.
out.choices_ms = ms(median(() => filterChoices(items, ME)))
out.transfers_ms = ms(median(() => transferRows(items, ME)))
const rows = transferRows(items, ME).rows
out.transfers_sorted_ms = ms(median(() => sortTransfers(rows, 'amount', 'desc')))
const now = [
  { key: NATIVE, symbol: 'coin', decimals: 18, value: 10n ** 30n },
  ...TOKENS.map((t) => ({
    key: t.address,
    symbol: t.symbol,
    decimals: t.decimals === null ? null : Number(t.decimals),
    value: 10n ** 20n,
  })),
]
const history = balanceHistory(items, ME, now, Date.UTC(2026, 0, 2))
out.balance_at_ms = ms(median(() => balanceAtDay(history, day, false)))
out.history_ms = ms(median(() => balanceHistory(items, ME, now, Date.UTC(2026, 0, 2))))
console.log(
  `questions: ${Object.entries(out)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}`,
)
