import { z } from 'zod'
import { GRANT_CALLS } from './approval-events'

/**
 * The parts of an approval both saved files hold (the scan's folded approvals, a page's digest),
 * checked the same way in both. Their addresses are `lowerAddressSchema`'s (@shared/domain/address).
 */

/**
 * An amount or token id (bigint) as JSON keeps it: a decimal string. Bounds well above a
 * uint256's 78 digits, the looser of the two files' own before they shared this: nothing saved
 * then is refused now.
 */
export const savedUint = z.string().regex(/^\d{1,200}$/)

/** The call or log a change was seen in. */
export const savedVia = z.enum([...GRANT_CALLS, 'log'])

/** A bigint as `savedUint` keeps it. */
export function uintText(value: bigint): string
export function uintText(value: bigint | null): string | null
export function uintText(value: bigint | null): string | null {
  return value === null ? null : value.toString()
}

/** A `savedUint` back as the bigint it was. */
export function uintValue(text: string): bigint
export function uintValue(text: string | null): bigint | null
export function uintValue(text: string | null): bigint | null {
  return text === null ? null : BigInt(text)
}
