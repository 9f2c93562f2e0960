import type { ContractName } from '../contracts/artifacts'

/**
 * The seed's tokens. The sandbox has no market, so exchange rate, volume and icon are static
 * demo values, shown only for some tokens; the others report null as the spec allows. The
 * market cap is derived from the rate and the on-chain total supply.
 */
export type TokenKey = 'sdl' | 'sgov' | 'sbtc' | 'bar' | 'meme' | 'punk' | 'item'
export type Erc20Key = 'sdl' | 'sgov' | 'sbtc' | 'bar' | 'meme'

export interface TokenDefinition {
  key: TokenKey
  contract: ContractName
  name: string
  symbol: string
  /** ERC-20 only. */
  decimals?: number
  /** ERC-20 only: minted to the deployer at creation, in whole units. */
  supply?: bigint
  market: { exchangeRate: string; volume24h: string } | null
  icon: boolean
}

export const TOKENS: readonly TokenDefinition[] = [
  {
    key: 'sdl',
    contract: 'SandboxToken',
    name: 'Sandbox Dollar',
    symbol: 'SDL',
    decimals: 6,
    supply: 250_000_000n,
    market: { exchangeRate: '1.0003', volume24h: '48213377.52' },
    icon: true,
  },
  {
    key: 'sgov',
    contract: 'SandboxToken',
    name: 'Sandbox Governance',
    symbol: 'SGOV',
    decimals: 18,
    supply: 10_000_000n,
    market: { exchangeRate: '12.47', volume24h: '1845120.09' },
    icon: true,
  },
  {
    key: 'sbtc',
    contract: 'SandboxToken',
    name: 'Sandbox Bitcoin',
    symbol: 'SBTC',
    decimals: 8,
    supply: 21_000n,
    market: { exchangeRate: '64210.55', volume24h: '9921004.4' },
    icon: true,
  },
  {
    key: 'bar',
    contract: 'SandboxToken',
    name: 'Gold Bar',
    symbol: 'BAR',
    decimals: 0,
    supply: 1_000_000n,
    market: null,
    icon: false,
  },
  {
    key: 'meme',
    contract: 'SandboxToken',
    name: 'Meme Coin',
    symbol: 'MEME',
    decimals: 18,
    supply: 1_000_000_000n,
    market: null,
    icon: false,
  },
  { key: 'punk', contract: 'SandboxCollectible', name: 'Sandbox Punks', symbol: 'SPUNK', market: null, icon: true },
  { key: 'item', contract: 'SandboxItems', name: 'Sandbox Items', symbol: 'SITEM', market: null, icon: false },
]

export const ERC20_KEYS: readonly Erc20Key[] = ['sdl', 'sgov', 'sbtc', 'bar', 'meme']

export function tokenDefinition(key: TokenKey): TokenDefinition {
  return TOKENS.find((t) => t.key === key)!
}
