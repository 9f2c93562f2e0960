import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transactionsResponseSchema } from '@shared/domain/service-schemas'
import { dataUrl, http } from '../test-helpers'
import { SEED_TIMEOUT_MS, startSandbox, type StartedSandbox } from '../testing'

/**
 * The live chain produces the shapes real services send, so e2e tests meet them without
 * replay: a transaction that stays pending (listed first) and legacy type-0 transactions.
 */
let sb: StartedSandbox
const KEY = 'live-shapes-key'

beforeAll(async () => {
  sb = await startSandbox({
    args: ['--api-key', KEY, '--block-time', '1', '--rate', '1000', '--burst', '1000', '--quota', '1000000'],
  })
}, SEED_TIMEOUT_MS)
afterAll(async () => {
  await sb?.stop()
})

describe('live shapes', () => {
  it('lists a pending transaction first and a legacy one with Blockscout nulls, both readable by the app', async () => {
    const address = sb.info.demo_addresses.alpha!.counterparty!
    let items: Record<string, unknown>[] = []
    // Bounded: the first live block comes within a few seconds.
    for (let i = 0; i < 60 && !items.some((t) => t.type === 0); i++) {
      const r = await http<{ items: Record<string, unknown>[] }>(
        dataUrl(sb.info.base_url, 'alpha', 'transactions', { api_key: KEY, address }),
      )
      items = r.json.items
      if (!items.some((t) => t.type === 0)) await new Promise((res) => setTimeout(res, 500))
    }
    const first = items[0]!
    expect(first).toMatchObject({
      result: 'pending',
      status: null,
      block: null,
      timestamp: null,
      gas_used: null,
      type: null,
      position: null,
      confirmation_duration: [],
    })
    expect(first).toMatchObject({
      priority_fee: null,
      tx_burnt_fee: null,
      base_fee_per_gas: null,
      fee: { type: 'maximum' },
    })
    const legacy = items.find((t) => t.type === 0)
    expect(legacy).toMatchObject({
      priority_fee: null,
      tx_burnt_fee: null,
      max_fee_per_gas: null,
      max_priority_fee_per_gas: null,
      status: 'ok',
    })
    const parsed = transactionsResponseSchema.parse({ items, next_page_params: null })
    expect(parsed.unreadable).toEqual([])
    // Still pending a few blocks later: the nonce gap is never filled.
    await new Promise((res) => setTimeout(res, 2500))
    const again = await http<{ items: Record<string, unknown>[] }>(
      dataUrl(sb.info.base_url, 'alpha', 'transactions', { api_key: KEY, address }),
    )
    expect(again.json.items[0]).toMatchObject({ hash: first.hash, result: 'pending' })
  }, 120_000)
})
