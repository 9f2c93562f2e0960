import { getAddress, keccak256, toHex, type Address } from 'viem'
import { deriveAddresses } from './hd'

/** Fixed so every machine derives the same accounts, transactions and hashes. */
export const SEED_MNEMONIC = 'knife drive zoo high guard bike book impulse street unable exotic alien'
export const SEED_ACCOUNTS = 24
export const SEED_BALANCE = 1_000_000
/** 2025-01-01T00:00:00Z: safely in the past, so live blocks (at wall-clock time) come after. */
export const GENESIS_TIMESTAMP = 1_735_689_600

export interface Roles {
  deployer: Address
  whale: Address
  holder: Address
  counterparties: Address[]
  /** Accounts that trade among themselves while the chain is live. */
  background: Address[]
  /** Never funded, never used: an address with no activity at all. */
  empty: Address
}

/** Dev account indexes: 0 deployer, 1 whale, 2 holder, 3-12 counterparties, 13-23 background. */
export function rolesFrom(accounts: readonly string[]): Roles {
  if (accounts.length < SEED_ACCOUNTS)
    throw new Error(`expected ${SEED_ACCOUNTS} dev accounts, anvil has ${accounts.length}`)
  const a = accounts.map((x) => getAddress(x))
  return {
    deployer: a[0]!,
    whale: a[1]!,
    holder: a[2]!,
    counterparties: a.slice(3, 13),
    background: a.slice(13, SEED_ACCOUNTS),
    empty: getAddress(`0x${keccak256(toHex('chainscope sandbox: the address with no activity')).slice(-40)}`),
  }
}

/**
 * The dev accounts anvil derives from the mnemonic (BIP-39 seed via PBKDF2, then m/44'/60'/0'/0/i),
 * computed without anvil so the cache key can cover the whole plan before any chain starts.
 */
export function deriveAccounts(mnemonic: string = SEED_MNEMONIC, count: number = SEED_ACCOUNTS): Address[] {
  return deriveAddresses(mnemonic, count)
}
