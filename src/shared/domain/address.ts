import { getAddress, isAddress } from 'viem'

/** 0x followed by 40 hex digits in any case: the form every layer checks an address against. */
export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/

/** An address or a transaction hash (what a note may be attached to). */
export const ADDRESS_OR_HASH_PATTERN = /^0x([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/

/** Whether a value is address text (any case, no checksum check: for data from files and servers). */
export function isAddressText(value: unknown): value is string {
  return typeof value === 'string' && ADDRESS_PATTERN.test(value)
}

/** Result of checking a user-typed address, with a message precise enough to act on. */
export type AddressCheck = { ok: true; address: `0x${string}` } | { ok: false; message: string }

/**
 * Validates length, hex and the EIP-55 checksum. All-lowercase or all-uppercase input carries
 * no checksum and is accepted; mixed case must match the checksum exactly.
 */
export function checkAddress(input: string): AddressCheck {
  const text = input.trim()
  if (text === '') return { ok: false, message: 'Enter an address (0x followed by 40 hex characters).' }
  if (!/^0x/i.test(text)) return { ok: false, message: 'An address starts with 0x.' }
  const body = text.slice(2)
  if (body.length !== 40) {
    return { ok: false, message: `An address has 40 hex characters after 0x; this one has ${body.length}.` }
  }
  const bad = body.search(/[^0-9a-fA-F]/)
  if (bad >= 0) {
    return { ok: false, message: `Character ${bad + 3} ("${body[bad]}") is not a hex digit.` }
  }
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase()
  if (mixed && !isAddress(text, { strict: true })) {
    return {
      ok: false,
      message: 'The mixed-case checksum (EIP-55) does not match: a character may be mistyped.',
    }
  }
  return { ok: true, address: getAddress(text.toLowerCase()) }
}

/** Addresses are stored lowercase and shown checksummed. */
export function normaliseAddress(address: string): `0x${string}` {
  // Lowercasing keeps the 0x prefix; TypeScript cannot see that through toLowerCase.
  return address.toLowerCase() as `0x${string}`
}

/** The one address comparison: case-insensitive, as EVM addresses are. */
export function sameAddress(a: string, b: string): boolean {
  return normaliseAddress(a) === normaliseAddress(b)
}

export function checksumAddress(address: string): `0x${string}` {
  return getAddress(address.toLowerCase())
}
