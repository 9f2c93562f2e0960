import { parseAddress, type Address } from '@shared/domain/address'

/** Address text a test writes, parsed as the bridge parses it; throws on a typo. Test support only. */
export function addr(text: string): Address {
  const parsed = parseAddress(text)
  if (!parsed.ok) throw new Error(`${text}: ${parsed.message}`)
  return parsed.address
}
