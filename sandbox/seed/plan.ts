import type { Address } from 'viem'
import { Prng } from './prng'
import { PlanBuilder, type PlannedBlock } from './plan-builder'
import type { Roles } from './roles'
import { ERC20_KEYS, TOKENS, tokenDefinition, type Erc20Key, type TokenKey } from './tokens'
import { addWhaleAction, WHALE_WEIGHTS, type PlanState } from './plan-actions'
import { addSeededApprovals } from './plan-approvals'

export interface SeedPlanInput {
  chainId: number
  roles: Roles
  /** Transactions the busy address must appear in (≥ 2,500 by default: 50+ pages). */
  whaleTxs: number
  genesisTimestamp: number
}

export interface SeedPlan {
  blocks: PlannedBlock[]
  contracts: Record<TokenKey | 'vault' | 'router' | 'registry' | 'proxy', Address>
  whaleTxs: number
  totalTxs: number
}

/** The whole deterministic history of one network, from the seed inputs only. */
export function buildSeedPlan(input: SeedPlanInput): SeedPlan {
  const { roles } = input
  const rng = new Prng(input.chainId * 7919 + 17)
  const b = new PlanBuilder(rng, input.genesisTimestamp)
  const { deployer, whale, holder, counterparties: cps } = roles

  // Setup: the deployer creates every token and helper contract.
  const tokens = {} as Record<TokenKey, Address>
  for (const t of TOKENS.filter((x) => x.contract === 'SandboxToken')) {
    tokens[t.key] = b.deploy(
      deployer,
      'SandboxToken',
      [t.name, t.symbol, t.decimals!, t.supply! * 10n ** BigInt(t.decimals!)],
      2_500_000n,
      `deploy ${t.symbol}`,
    )
  }
  b.endBlock()
  const punk = tokenDefinition('punk')
  const item = tokenDefinition('item')
  tokens.punk = b.deploy(deployer, 'SandboxCollectible', [punk.name, punk.symbol], 3_500_000n, 'deploy SPUNK')
  tokens.item = b.deploy(deployer, 'SandboxItems', [item.name, item.symbol], 4_000_000n, 'deploy SITEM')
  const vault = b.deploy(deployer, 'Vault', [], 1_000_000n, 'deploy Vault')
  const router = b.deploy(deployer, 'Router', [], 1_500_000n, 'deploy Router')
  b.endBlock()

  const unit = (key: Erc20Key): bigint => 10n ** BigInt(tokenDefinition(key).decimals!)
  for (const key of ERC20_KEYS) {
    const supply = tokenDefinition(key).supply! * unit(key)
    b.call(deployer, tokens[key], 'SandboxToken', 'transfer', [whale, supply / 10n], {
      gas: 90_000n,
      label: `fund whale ${key}`,
    })
    b.call(deployer, tokens[key], 'SandboxToken', 'transfer', [holder, supply / 50n], {
      gas: 90_000n,
      label: `fund holder ${key}`,
    })
    b.call(deployer, tokens[key], 'SandboxToken', 'approve', [router, 2n ** 256n - 1n], {
      gas: 60_000n,
      label: `approve router ${key}`,
    })
  }
  b.endBlock()
  for (const [i, cp] of cps.entries()) {
    for (const key of ERC20_KEYS) {
      const supply = tokenDefinition(key).supply! * unit(key)
      b.call(deployer, tokens[key], 'SandboxToken', 'transfer', [cp, supply / 100n], {
        gas: 90_000n,
        label: `fund cp ${key}`,
      })
    }
    if (i % 2 === 1) b.endBlock()
  }
  b.endBlock()

  // Amounts shrink for plans longer than the default 2,600 transactions, so a longer history
  // (e.g. 10,000 for the UI benchmark) never spends more than the funding above; the default
  // plan, and so its pinned fingerprint, is unchanged.
  const scale = BigInt(Math.max(1, Math.ceil(input.whaleTxs / 2600)))
  const step = (key: Erc20Key): bigint => (tokenDefinition(key).supply! * unit(key)) / (100_000n * scale)
  const state: PlanState = {
    b,
    rng,
    roles,
    tokens,
    vault,
    router,
    registry: null,
    whalePunks: [],
    cpPunks: [],
    vaultBalance: 0n,
    notes: 0,
    // The five funding transfers above.
    whaleTxs: 5,
    unit,
    amount: (key, max) => step(key) * BigInt(rng.int(1, max)) + step(key) / BigInt(rng.int(2, 97)),
  }
  // NFTs: the holder owns ids 1-12, the whale 101-108; both hold ERC-1155 items.
  for (let id = 1; id <= 12; id++)
    b.call(deployer, tokens.punk, 'SandboxCollectible', 'mint', [holder, BigInt(id)], {
      gas: 200_000n,
      label: 'mint punk holder',
    })
  b.endBlock()
  for (let id = 101; id <= 108; id++) {
    b.call(deployer, tokens.punk, 'SandboxCollectible', 'mint', [whale, BigInt(id)], {
      gas: 200_000n,
      label: 'mint punk whale',
    })
    state.whalePunks.push(id)
  }
  b.call(deployer, tokens.item, 'SandboxItems', 'mintBatch', [holder, [1n, 2n, 3n], [5n, 2n, 40n]], {
    gas: 250_000n,
    label: 'mint items holder',
  })
  b.call(deployer, tokens.item, 'SandboxItems', 'mintBatch', [whale, [1n, 2n, 3n], [100n, 100n, 500n]], {
    gas: 250_000n,
    label: 'mint items whale',
  })
  state.whaleTxs += 9
  b.endBlock()
  for (const key of ERC20_KEYS) {
    b.call(whale, tokens[key], 'SandboxToken', 'approve', [router, 2n ** 256n - 1n], {
      gas: 60_000n,
      label: `whale approves router ${key}`,
    })
  }
  state.whaleTxs += ERC20_KEYS.length
  b.endBlock()

  // History: blocks of 1-12 transactions, three quarters of them involving the busy address.
  let registryPlaced = false
  let overflowPlaced = false
  while (state.whaleTxs < input.whaleTxs) {
    const size = rng.int(1, 12)
    for (let i = 0; i < size; i++) {
      if (!registryPlaced && state.whaleTxs >= input.whaleTxs * 0.3) {
        state.registry = b.deploy(whale, 'Registry', [], 1_000_000n, 'whale deploys Registry')
        state.whaleTxs += 1
        registryPlaced = true
      } else if (!overflowPlaced && state.whaleTxs >= input.whaleTxs * 0.5) {
        // More token transfers than a transaction item lists (token_transfers_overflow).
        const recipients = Array.from({ length: 60 }, (_, k) =>
          k === 0 ? whale : k % 7 === 0 ? holder : cps[k % cps.length]!,
        )
        const amounts = recipients.map((_, k) => BigInt(k + 1) * unit('sdl'))
        b.call(deployer, router, 'Router', 'multiTransfer', [tokens.sdl, recipients, amounts], {
          gas: 3_000_000n,
          label: 'overflow multiTransfer',
        })
        state.whaleTxs += 1
        overflowPlaced = true
      } else if (rng.next() < 0.75) {
        addWhaleAction(state, rng.weighted(WHALE_WEIGHTS))
      } else {
        addOtherAction(state)
      }
    }
    b.endBlock()
  }
  b.endBlock()
  addSeededApprovals(b, roles, tokens, router, unit)
  // Last, so every earlier block stays as it was: an EIP-1967 proxy in front of SGOV, and one
  // coin split through the Router the integration tests trace (two internal transfers).
  const proxy = b.deploy(deployer, 'SandboxProxy', [tokens.sgov], 800_000n, 'deploy SandboxProxy')
  b.call(whale, router, 'Router', 'splitEther', [[cps[0]!, roles.holder]], {
    value: 2n * 10n ** 18n,
    gas: 120_000n,
    label: 'traced splitEther',
  })
  b.endBlock()
  return {
    blocks: b.blocks,
    contracts: { ...tokens, vault, router, registry: state.registry!, proxy },
    whaleTxs: state.whaleTxs,
    totalTxs: b.txCount,
  }
}

/** Activity that does not touch the busy address, so other addresses have histories too. */
function addOtherAction(s: PlanState): void {
  const { b, rng, roles, tokens } = s
  const from = rng.pick(roles.counterparties)
  const to = rng.pick([...roles.counterparties.filter((c) => c !== from), roles.holder])
  const roll = rng.next()
  if (roll < 0.4) {
    b.tx(from, to, { value: BigInt(rng.int(1, 5000)) * 10n ** 15n, gas: 21_000n, label: 'cp coin' })
  } else if (roll < 0.85) {
    const key = rng.pick(ERC20_KEYS)
    b.call(from, tokens[key], 'SandboxToken', 'transfer', [to, s.amount(key, 20)], { gas: 90_000n, label: `cp ${key}` })
  } else if (roll < 0.93) {
    const key = rng.pick(ERC20_KEYS)
    b.call(roles.holder, tokens[key], 'SandboxToken', 'transfer', [rng.pick(roles.counterparties), s.amount(key, 10)], {
      gas: 90_000n,
      label: `holder ${key}`,
    })
  } else {
    b.tx(roles.holder, from, { value: BigInt(rng.int(1, 900)) * 10n ** 15n, gas: 21_000n, label: 'holder coin' })
  }
}
