import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataUrl, http, rpc } from '../test-helpers'
import { SEED_TIMEOUT_MS, startSandbox, type StartedSandbox } from '../testing'

/** The live chain: blocks keep coming with jitter and background activity, and the index follows. */
let sb: StartedSandbox
const KEY = 'live-test-key'

beforeAll(async () => {
  sb = await startSandbox({ args: ['--api-key', KEY, '--block-time', '1', '--rate', '1000', '--burst', '1000'] })
}, SEED_TIMEOUT_MS)
afterAll(async () => {
  await sb?.stop()
})

const head = async (network: string): Promise<number> =>
  Number((await rpc<string>(sb.info.rpc_url, network, KEY, [{ method: 'eth_blockNumber' }]))[0])

/** Polls until `check` returns a value (the chain moves in real time; no fixed sleeps). */
async function until<T>(what: string, check: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== null) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe.each(['alpha', 'beta'])('live chain %s', (network) => {
  it('keeps mining blocks at wall-clock time, and confirmations grow', async () => {
    const whale = sb.info.demo_addresses[network]!.whale!
    const url = dataUrl(sb.info.base_url, network, 'transactions', { api_key: KEY, address: whale })
    const first = (await http<{ items: { hash: string; confirmations: number; block: number }[] }>(url)).json.items[0]!
    const start = await head(network)
    const later = await until('3 new blocks', async () => {
      const h = await head(network)
      return h >= start + 3 ? h : null
    })
    const blocks = await rpc<{ timestamp: string }>(
      sb.info.rpc_url,
      network,
      KEY,
      [start + 1, start + 2, start + 3].map((n) => ({
        method: 'eth_getBlockByNumber',
        params: [`0x${n.toString(16)}`, false],
      })),
    )
    const times = blocks.map((b) => Number(b.timestamp))
    expect(times[1]! > times[0]! && times[2]! > times[1]!).toBe(true)
    expect(Math.abs(times[2]! - Date.now() / 1000)).toBeLessThan(120)
    const again = await until('the index to reach the new head', async () => {
      const items = (await http<{ items: { hash: string; confirmations: number; block: number }[] }>(url)).json.items
      return items[0]!.confirmations >= later - items[0]!.block ? items[0]! : null
    })
    // Background activity never touches the demo addresses: same newest transaction, more confirmations.
    expect(again.hash).toBe(first.hash)
    expect(again.confirmations).toBeGreaterThan(first.confirmations)
  }, 120_000)

  it('indexes the background transactions of new blocks', async () => {
    const start = await head(network)
    const tx = await until(
      'a new block with transactions',
      async () => {
        const h = await head(network)
        for (let n = start + 1; n <= h; n++) {
          const [block] = await rpc<{ transactions: { hash: string; from: string }[] }>(sb.info.rpc_url, network, KEY, [
            { method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, true] },
          ])
          if (block!.transactions.length > 0) return block!.transactions[0]!
        }
        return null
      },
      60_000,
    )
    await until("the sender's list to show it", async () => {
      const items = (
        await http<{ items: { hash: string }[] }>(
          dataUrl(sb.info.base_url, network, 'transactions', { api_key: KEY, address: tx.from }),
        )
      ).json.items
      return items.some((i) => i.hash === tx.hash) ? true : null
    })
  }, 120_000)
})
