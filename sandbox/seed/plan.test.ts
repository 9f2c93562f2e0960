import { describe, expect, it } from 'vitest'
import { buildSeedPlan } from './plan'
import { deriveAccounts, GENESIS_TIMESTAMP, rolesFrom } from './roles'

const roles = rolesFrom(deriveAccounts())

describe('seed plan', () => {
  it('derives the same dev accounts as anvil does from the mnemonic', () => {
    // anvil's account 0 and 1 for this mnemonic (checked against eth_accounts when seeding).
    expect(roles.deployer).toBe('0x3F1472Dd9c0F2369ebF3c7b04c00A9D6494eBCFf')
    expect(roles.whale).toBe('0x7FF9eAc1b1E0028E68C3a81Ee84466E3E69c1bD2')
    expect(roles.empty).not.toBe(roles.whale)
  })

  it('is identical every time for the same inputs and differs between chains', () => {
    const a = buildSeedPlan({ chainId: 7001, roles, whaleTxs: 400, genesisTimestamp: GENESIS_TIMESTAMP })
    const b = buildSeedPlan({ chainId: 7001, roles, whaleTxs: 400, genesisTimestamp: GENESIS_TIMESTAMP })
    const c = buildSeedPlan({ chainId: 7002, roles, whaleTxs: 400, genesisTimestamp: GENESIS_TIMESTAMP })
    expect(a).toEqual(b)
    expect(c.blocks.map((x) => x.txs.length)).not.toEqual(a.blocks.map((x) => x.txs.length))
  })

  it('pins nonces per sender, strictly increasing timestamps and base fees within the fee cap', () => {
    const plan = buildSeedPlan({ chainId: 7001, roles, whaleTxs: 2600, genesisTimestamp: GENESIS_TIMESTAMP })
    expect(plan.whaleTxs).toBeGreaterThanOrEqual(2600)
    const nonces = new Map<string, number>()
    let time = GENESIS_TIMESTAMP
    for (const block of plan.blocks) {
      expect(block.timestamp).toBeGreaterThan(time)
      time = block.timestamp
      expect(block.txs.length).toBeGreaterThan(0)
      expect(block.txs.reduce((g, t) => g + t.gas, 0n)).toBeLessThanOrEqual(30_000_000n)
      for (const tx of block.txs) {
        expect(tx.maxFeePerGas).toBeGreaterThan(block.baseFee)
        const next = nonces.get(tx.from) ?? 0
        expect(tx.nonce).toBe(next)
        nonces.set(tx.from, next + 1)
      }
    }
    const labels = new Set(plan.blocks.flatMap((b) => b.txs.map((t) => t.label)))
    for (const kind of [
      'coin out',
      'vault revert',
      'tryAll failing',
      'whale deploys Registry',
      'overflow multiTransfer',
      'unknown selector',
      'punk out',
      'item out',
      'meme burn',
    ]) {
      expect(labels).toContain(kind)
    }
  })
})
