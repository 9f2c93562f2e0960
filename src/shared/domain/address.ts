import { getAddress, isAddress } from 'viem'
import { z } from 'zod'

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
 * no checksum and is accepted; mixed case must match the checksum exactly. Answers the address
 * checksummed, as it is shown.
 */
export function checkAddress(input: string): AddressCheck {
  const text = input.trim()
  const problem = addressProblem(text)
  return problem === null ? { ok: true, address: getAddress(text.toLowerCase()) } : { ok: false, message: problem }
}

/**
 * An address inside main: checked once (form and checksum) where it came in, and lowercase,
 * the case main keys everything by (caches, snapshot folders, watch state, the saved files),
 * so nothing downstream checks or re-cases it. Only `parseAddress` makes one; what main shows
 * or writes for people (views, exports) is checksummed from it.
 */
export type Address = `0x${string}` & { readonly __brand: 'Address' }

/** An address as saved files keep it: lowercase, as main keys everything (see `Address`). */
export const lowerAddressSchema = z
  .string()
  .regex(/^0x[0-9a-f]{40}$/, 'expected a lowercase address (0x and 40 hex digits)')

export type AddressParse = { ok: true; address: Address } | { ok: false; message: string }

/** `checkAddress`, answering the lowercase `Address` main works with (no checksum computed). */
export function parseAddress(input: string): AddressParse {
  const text = input.trim()
  const problem = addressProblem(text)
  // Checked just above: 0x and 40 hex digits, lowercased.
  return problem === null ? { ok: true, address: text.toLowerCase() as Address } : { ok: false, message: problem }
}

/** What is wrong with address text, in words the user can act on; null when nothing is. */
function addressProblem(text: string): string | null {
  if (text === '') return 'Enter an address (0x followed by 40 hex characters).'
  if (!/^0x/i.test(text)) return 'An address starts with 0x.'
  const body = text.slice(2)
  if (body.length !== 40) return `An address has 40 hex characters after 0x; this one has ${body.length}.`
  const bad = body.search(/[^0-9a-fA-F]/)
  if (bad >= 0) return `Character ${bad + 3} ("${body[bad]}") is not a hex digit.`
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase()
  if (mixed && !isAddress(text, { strict: true }))
    return 'The mixed-case checksum (EIP-55) does not match: a character may be mistyped.'
  return null
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
