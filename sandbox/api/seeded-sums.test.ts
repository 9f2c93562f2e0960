import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { transactionsResponseSchema } from '@shared/domain/service-schemas'
import { NATIVE } from '@shared/domain/movements'
import { newestCoinRate, sumsPerAsset } from '@shared/domain/money'
import { ChainStore, type StoreSnapshot } from '../index/store'
import { COIN_RATES, coinOf } from '../config'
import { defaultShippedDir, readShippedIndex } from '../shipped-state'
import { isoMicros, txItem, type FormatContext } from './format'

/**
 * The money sums (src/shared/domain/money.ts) on the sandbox's seeded data: the shipped Alpha
 * chain's index, its items formatted as the data API serves them and read by the app's schema,
 * against answers worked out by hand from the index's raw records (a separate script over
 * index.json: per movement, in when sent to the whale by another, out when sent by it to
 * another, nothing for a failed transaction or a self-transfer).
 */
const chainId = 7001
const dir = join(defaultShippedDir(), `${chainId}-${readShippedIndex(defaultShippedDir())!.entries[String(chainId)]}`)
const snapshot = JSON.parse(gunzipSync(readFileSync(join(dir, 'index.json.gz'))).toString('utf8')) as StoreSnapshot
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
  roles: { whale: string }
  contracts: Record<string, string>
}
const store = ChainStore.fromSnapshot(snapshot)
const ctx: FormatContext = { store, market: new Map(), coinRate: COIN_RATES[0] }
const whale = manifest.roles.whale.toLowerCase()
const token = (key: string): string => manifest.contracts[key]!.toLowerCase()
const ALPHA = { ...coinOf('alpha'), named: true }

const served = (records: ReturnType<ChainStore['page']>['items']) => {
  const parsed = transactionsResponseSchema.parse({ items: records.map((r) => txItem(ctx, r)), next_page_params: null })
  expect(parsed.unreadable).toEqual([])
  return parsed.items
}

describe('sums per asset on the seeded busy wallet', () => {
  it('its first page of 50, by hand', () => {
    const page = store.page(whale, null, 50).items
    const items = served(page)
    const s = sumsPerAsset(items, whale, ALPHA)
    expect(s.cut).toBe(0)
    expect(s.assets.map((a) => [a.asset, a.symbol, a.in, a.out, a.txs])).toEqual([
      // The newest is the seed's last transaction: 2 ALPHA split through the Router (seed/plan.ts).
      [NATIVE, 'ALPHA', 2_299_000_000_000_000_000n, 24_386_000_000_000_000_000n, 17],
      [token('bar'), 'BAR', 390n, 390n, 3],
      [token('meme'), 'MEME', 260_514_172_709_294_660_514_172n, 831_081_877_053_497_857_030_474n, 7],
      [token('sbtc'), 'SBTC', 1_390_250_239n, 1_177_386_812n, 6],
      [token('sdl'), 'SDL', 22_540_322_580n, 222_843_210_103n, 5],
      [token('sgov'), 'SGOV', 1_104_761_904_761_904_761_904n, 3_601_960_784_313_725_490_196n, 2],
      [token('item'), 'SITEM', 0n, 2n, 2],
    ])
    // Every served item carries the network's demo rate; the newest one's time is the page's first.
    expect(newestCoinRate(items)).toMatchObject({ rate: '2451.83', at: isoMicros(page[0]!.timestamp) })
  })

  it('every transaction moving SDL to or from it: 217, in 28,223,934.227799 and out 6,641,718.73098', () => {
    const all = store.page(whale, null, 10_000).items
    expect(all).toHaveLength(2602)
    const sdl = token('sdl')
    const moved = all.filter((r) => r.transfers.some((t) => t.token === sdl && (t.from === whale || t.to === whale)))
    const s = sumsPerAsset(served(moved), whale, ALPHA)
    const row = s.assets.find((a) => a.asset === sdl)!
    expect([row.in, row.out, row.txs]).toEqual([28_223_934_227_799n, 6_641_718_730_980n, 217])
    // These transactions call the token: they move no coin.
    expect(s.assets.map((a) => a.asset)).toEqual([sdl])
  })
})
