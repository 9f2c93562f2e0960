import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { resolveAnvilBinary } from '../paths'
import { startAnvil, type AnvilChain } from './anvil'

const MNEMONIC = 'test test test test test test test test test test test junk'
let chain: AnvilChain | null = null
afterEach(async () => {
  await chain?.stop()
  chain = null
})

/** Blocks with a transaction each: past anvil's in-memory limit, it writes the older states to disk. */
async function fillStates(c: AnvilChain): Promise<void> {
  const [from, to] = await c.rpc.call<string[]>('eth_accounts')
  for (let i = 0; i < 6; i++) {
    await c.rpc.call('anvil_mine', ['0x64'])
    await c.rpc.call('eth_sendTransaction', [{ from, to, value: '0x1' }])
    await c.rpc.call('anvil_mine', ['0x1'])
  }
}

describe('an anvil chain leaves no state on disk', { timeout: 60_000 }, () => {
  it('keeps its overflow states in its own home, and removes that home when stopped', async () => {
    chain = await startAnvil({
      bin: resolveAnvilBinary(),
      chainId: 31337,
      mnemonic: MNEMONIC,
      accounts: 2,
      balance: 1000,
      genesisTimestamp: 1_700_000_000,
    })
    await fillStates(chain)
    const states = join(chain.home, '.foundry', 'anvil', 'tmp')
    // The condition the home exists for: anvil did write states to disk (else this test proves nothing).
    expect(readdirSync(states).some((n) => n.startsWith('anvil-state-'))).toBe(true)
    const home = chain.home
    await chain.stop()
    chain = null
    expect(existsSync(home)).toBe(false)
  })
})
