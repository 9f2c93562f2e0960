import { encodeFunctionData, type Address } from 'viem'
import { ARTIFACTS } from '../contracts/artifacts'
import type { Prng } from './prng'
import type { PlanBuilder } from './plan-builder'
import type { Roles } from './roles'
import { ERC20_KEYS, type Erc20Key, type TokenKey } from './tokens'

export interface PlanState {
  b: PlanBuilder
  rng: Prng
  roles: Roles
  tokens: Record<TokenKey, Address>
  vault: Address
  router: Address
  registry: Address | null
  whalePunks: number[]
  cpPunks: { id: number; owner: Address }[]
  vaultBalance: bigint
  notes: number
  /** Transactions planned so far that the busy address appears in. */
  whaleTxs: number
  unit(key: Erc20Key): bigint
  /** A token amount of 1..max steps of 1/100,000 of the supply, plus an odd remainder. */
  amount(key: Erc20Key, max: number): bigint
}

export const WHALE_WEIGHTS = {
  coinOut: 22,
  coinIn: 8,
  tokenOut: 22,
  tokenIn: 8,
  routerIn: 5,
  routerOut: 5,
  splitEther: 3,
  tryAll: 4,
  vaultDeposit: 4,
  vaultWithdraw: 2,
  vaultRevert: 3,
  note: 3,
  punkOut: 1,
  punkBack: 1,
  itemOut: 2,
  burn: 2,
  unknownSelector: 1,
  approve: 2,
} as const

export type WhaleAction = keyof typeof WHALE_WEIGHTS

const E15 = 10n ** 15n

/** Adds one transaction the busy address takes part in (falls back to a coin transfer). */
export function addWhaleAction(s: PlanState, action: WhaleAction): void {
  const { b, rng, roles, tokens } = s
  const { whale } = roles
  const cp = rng.pick(roles.counterparties)
  const token = rng.pick(ERC20_KEYS)
  const amount = s.amount
  s.whaleTxs += 1
  switch (action) {
    case 'coinIn':
      b.tx(cp, whale, { value: BigInt(rng.int(1, 3000)) * E15, gas: 21_000n, label: 'coin in' })
      return
    case 'tokenOut':
      b.call(whale, tokens[token], 'SandboxToken', 'transfer', [cp, amount(token, 40)], {
        gas: 90_000n,
        label: `token out ${token}`,
      })
      return
    case 'tokenIn':
      b.call(cp, tokens[token], 'SandboxToken', 'transfer', [whale, amount(token, 40)], {
        gas: 90_000n,
        label: `token in ${token}`,
      })
      return
    case 'routerIn': {
      // The whale appears only in a token transfer of someone else's transaction.
      const to = [whale, cp, rng.pick(roles.counterparties)]
      b.call(
        roles.deployer,
        s.router,
        'Router',
        'multiTransfer',
        [tokens[token], to, to.map(() => amount(token, 20))],
        { gas: 300_000n, label: `router in ${token}` },
      )
      return
    }
    case 'routerOut': {
      const to = roles.counterparties.slice(0, rng.int(2, 4))
      b.call(whale, s.router, 'Router', 'multiTransfer', [tokens[token], to, to.map(() => amount(token, 10))], {
        gas: 350_000n,
        label: `router out ${token}`,
      })
      return
    }
    case 'splitEther': {
      const to = roles.counterparties.slice(rng.int(0, 5), 8)
      b.call(whale, s.router, 'Router', 'splitEther', [to], {
        value: BigInt(rng.int(10, 900)) * E15,
        gas: 250_000n,
        label: 'split ether',
      })
      return
    }
    case 'tryAll': {
      // One call in three fails inside: the transaction succeeds with an internal error.
      const failing = rng.next() < 0.67
      const read = encodeFunctionData({ abi: ARTIFACTS.SandboxToken.abi, functionName: 'balanceOf', args: [whale] })
      const first = failing
        ? encodeFunctionData({ abi: ARTIFACTS.Vault.abi, functionName: 'withdraw', args: [10n ** 30n] })
        : encodeFunctionData({ abi: ARTIFACTS.SandboxToken.abi, functionName: 'totalSupply', args: [] })
      const targets = [failing ? s.vault : tokens[token], tokens[token]]
      b.call(whale, s.router, 'Router', 'tryAll', [targets, [first, read]], {
        gas: 200_000n,
        label: failing ? 'tryAll failing' : 'tryAll ok',
      })
      return
    }
    case 'vaultDeposit': {
      const value = BigInt(rng.int(10, 2000)) * E15
      s.vaultBalance += value
      b.call(whale, s.vault, 'Vault', 'deposit', [], { value, gas: 80_000n, label: 'vault deposit' })
      return
    }
    case 'vaultWithdraw':
      if (s.vaultBalance > 0n) {
        const value = s.vaultBalance / 3n + 1n
        s.vaultBalance -= value
        b.call(whale, s.vault, 'Vault', 'withdraw', [value], { gas: 90_000n, label: 'vault withdraw' })
        return
      }
      break
    case 'vaultRevert':
      b.call(whale, s.vault, 'Vault', 'withdraw', [s.vaultBalance + 1000n * 10n ** 18n], {
        gas: 90_000n,
        expect: 'revert',
        label: 'vault revert',
      })
      return
    case 'note':
      if (s.registry) {
        s.notes += 1
        const tooLong = s.notes % 5 === 0
        const note = tooLong ? 'x'.repeat(80) : `note #${s.notes}`
        b.call(whale, s.registry, 'Registry', 'setNote', [note], {
          gas: 120_000n,
          expect: tooLong ? 'revert' : 'ok',
          label: 'note',
        })
        return
      }
      break
    case 'punkOut':
      if (s.whalePunks.length > 2) {
        const id = s.whalePunks.shift()!
        s.cpPunks.push({ id, owner: cp })
        b.call(whale, tokens.punk, 'SandboxCollectible', 'transferFrom', [whale, cp, BigInt(id)], {
          gas: 120_000n,
          label: 'punk out',
        })
        return
      }
      break
    case 'punkBack': {
      const back = s.cpPunks.shift()
      if (back) {
        s.whalePunks.push(back.id)
        b.call(back.owner, tokens.punk, 'SandboxCollectible', 'transferFrom', [back.owner, whale, BigInt(back.id)], {
          gas: 120_000n,
          label: 'punk back',
        })
        return
      }
      break
    }
    case 'itemOut':
      b.call(whale, tokens.item, 'SandboxItems', 'safeTransferFrom', [whale, cp, BigInt(rng.int(1, 3)), 1n, '0x'], {
        gas: 120_000n,
        label: 'item out',
      })
      return
    case 'burn':
      b.call(whale, tokens.meme, 'SandboxToken', 'burn', [amount('meme', 50)], { gas: 70_000n, label: 'meme burn' })
      return
    case 'unknownSelector':
      // A selector no contract knows: reverts without a reason and cannot be decoded.
      b.tx(whale, s.router, {
        data: '0xdeadbeef0000000000000000000000000000000000000000000000000000000000000001',
        gas: 60_000n,
        expect: 'revert',
        label: 'unknown selector',
      })
      return
    case 'approve':
      b.call(whale, tokens[token], 'SandboxToken', 'approve', [cp, amount(token, 100)], {
        gas: 60_000n,
        label: `approve ${token}`,
      })
      return
    case 'coinOut':
      break
  }
  b.tx(whale, cp, { value: BigInt(rng.int(1, 3000)) * E15, gas: 21_000n, label: 'coin out' })
}
