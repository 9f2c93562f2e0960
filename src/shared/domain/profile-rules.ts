/**
 * The rules of a profile's fields, in one place: the bridge's zod schemas (`profile.ts`,
 * `call-schemas.ts`) and the setup form's checks and `maxlength`s read them. Plain values (no
 * zod) so the renderer can import them without bundling the schemas. Each check returns what
 * is wrong, or null.
 */
export const PROFILE_LIMITS = {
  name: 60,
  networkLabel: 40,
  /** 1-32 characters, see NETWORK_NAME_PATTERN. */
  networkName: 32,
  keyMin: 8,
  keyMax: 256,
  /** A network's coin symbol ("ETH"), see COIN_SYMBOL_PATTERN. */
  coinSymbol: 16,
  /** A coin's decimals, as a token's (a uint8). */
  coinDecimalsMax: 255,
} as const

/** Network names are data, never constants: each profile names its two networks. */
export const NETWORK_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/
export const NETWORK_NAME_RULE = 'a network name is 1-32 lowercase letters, digits or dashes'

export function networkNameProblem(name: string): string | null {
  return NETWORK_NAME_PATTERN.test(name) ? null : NETWORK_NAME_RULE
}

/** A service address: http(s), no query or fragment (the app adds the key itself). */
export function serviceUrlProblem(text: string): string | null {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'expected a URL'
  }
  if (!/^https?:\/\//.test(text) || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return 'the URL must start with http:// or https://'
  if (/[?#]/.test(text)) return 'the URL must not carry a query or fragment (the key is added by the app)'
  return null
}

/** An API key as pasted (trimmed): printable ASCII without spaces, 8-256 characters. */
export function apiKeyProblem(key: string): string | null {
  if (key.length < PROFILE_LIMITS.keyMin) return `an API key has at least ${PROFILE_LIMITS.keyMin} characters`
  if (key.length > PROFILE_LIMITS.keyMax) return `an API key has at most ${PROFILE_LIMITS.keyMax} characters`
  if (!/^[\x21-\x7e]+$/.test(key)) return 'an API key has no spaces or control characters'
  return null
}

/**
 * A network's coin symbol: 1-16 letters, digits, dots, dashes or underscores ("ETH", "xDAI",
 * "USDC.e"). The spec names no coin; a profile may (docs/decisions/coin-as-asset.md).
 */
const COIN_SYMBOL_PATTERN = /^[A-Za-z0-9._-]{1,16}$/

export function coinSymbolProblem(symbol: string): string | null {
  return COIN_SYMBOL_PATTERN.test(symbol)
    ? null
    : `a coin symbol is 1-${PROFILE_LIMITS.coinSymbol} letters, digits, dots, dashes or underscores`
}

export function coinDecimalsProblem(decimals: number): string | null {
  return Number.isInteger(decimals) && decimals >= 0 && decimals <= PROFILE_LIMITS.coinDecimalsMax
    ? null
    : `a coin's decimals are a whole number from 0 to ${PROFILE_LIMITS.coinDecimalsMax}`
}
