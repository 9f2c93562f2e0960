import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { fixtureDir } from '@shared/testing/blockscout-fixtures'
import { loadReplay, replayAnswer } from './replay'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const q = (params: Record<string, string>) => new URLSearchParams(params)

describe('replay mode', () => {
  it('serves the fixtures exactly for their address, and nothing for another', async () => {
    const r = await loadReplay(fixtureDir())
    const page = replayAnswer(r, 'transactions', q({ address: r.address }))
    expect(page?.status).toBe(200)
    const body = JSON.parse(page!.body) as { items: unknown[]; next_page_params: unknown }
    expect(body.items).toHaveLength(20)
    expect(body.next_page_params).toBeNull()
    expect(body.items).toEqual(r.transactions)
    const bal = JSON.parse(
      replayAnswer(r, 'balance', q({ address: r.address.toUpperCase().replace('0X', '0x') }))!.body,
    ) as { items: unknown[] }
    expect(bal.items).toHaveLength(16)
    expect(replayAnswer(r, 'transactions', q({ address: `0x${'1'.repeat(40)}` }))).toBeNull()
  })

  it('pages with next_page_params the client echoes back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-'))
    dirs.push(dir)
    const address = `0x${'ab'.repeat(20)}`
    const items = Array.from({ length: 7 }, (_, i) => ({ item: { hash: `0x${i.toString(16).padStart(64, '0')}` } }))
    writeFileSync(join(dir, 'transactions.json'), JSON.stringify({ address, items }))
    const r = await loadReplay(dir)
    const first = JSON.parse(replayAnswer(r, 'transactions', q({ address }), 3)!.body) as {
      items: { hash: string }[]
      next_page_params: Record<string, unknown>
    }
    expect(first.items.map((i) => i.hash.slice(-1))).toEqual(['0', '1', '2'])
    const echo = Object.fromEntries(Object.entries(first.next_page_params).map(([k, v]) => [k, String(v)]))
    const second = JSON.parse(replayAnswer(r, 'transactions', q({ address, ...echo }), 3)!.body) as {
      items: { hash: string }[]
    }
    expect(second.items.map((i) => i.hash.slice(-1))).toEqual(['3', '4', '5'])
    // No balances file: the seeded data answers balances.
    expect(replayAnswer(r, 'balance', q({ address }))).toBeNull()
  })

  it('refuses a folder without item files, or a malformed one, by name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-'))
    dirs.push(dir)
    await expect(loadReplay(dir)).rejects.toThrow(/neither transactions.json nor balances.json/)
    writeFileSync(join(dir, 'balances.json'), JSON.stringify({ address: 'nope', items: [] }))
    await expect(loadReplay(dir)).rejects.toThrow(/balances.json: address/)
  })
})
