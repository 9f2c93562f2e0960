import { z } from 'zod'
import { ADDRESS_PATTERN, parseAddress } from '../domain/address'

/**
 * The one check of an address coming in: its form, then its EIP-55 checksum; main's handler gets
 * the lowercase `Address` (domain/address.ts says why lowercase) and checks it no further.
 */
export const addressInput = z
  .string()
  .regex(ADDRESS_PATTERN, 'expected 0x followed by 40 hex characters')
  .transform((text, ctx) => {
    const parsed = parseAddress(text)
    if (parsed.ok) return parsed.address
    ctx.addIssue({ code: 'custom', message: parsed.message })
    return z.NEVER
  })
