import { sameAddress } from '@shared/domain/address'
import type { ProxySlots } from '@shared/bridge/entity-types'
import type { AddressObject, Transaction } from '@shared/domain/service-schemas'
import { ZERO_ADDRESS } from '@shared/domain/contracts'
import { AppError } from '../util/app-error'
import type { RpcCallSpec } from '../service/service-types'

/** What the service's transactions say of an address, where a loaded one carries it. */
export interface ServiceHint {
  isContract: boolean | null
  name: string | null
  verified: boolean | null
  creator: string | null
  creationTx: string | null
}

/** The most code read (EIP-170 caps a contract at 24,576 bytes; some chains allow more). */
const MAX_CODE_BYTES = 1024 * 1024

/**
 * The service's word on an address from transactions already loaded (no request): its
 * `is_contract`, `is_verified` and `name` where a transaction names it as sender or recipient,
 * and its creator and creation transaction where a transaction's `created_contract` is it.
 */
export function serviceHint(transactions: Iterable<Transaction>, address: string): ServiceHint | null {
  let hint: ServiceHint | null = null
  const note = (o: AddressObject | null | undefined): void => {
    if (!o || o.hash.toLowerCase() !== address) return
    hint ??= { isContract: null, name: null, verified: null, creator: null, creationTx: null }
    hint.isContract ??= o.is_contract ?? null
    hint.verified ??= o.is_verified ?? null
    hint.name ??= o.name ?? null
  }
  for (const tx of transactions) {
    note(tx.from)
    note(tx.to)
    note(tx.created_contract)
    if (tx.created_contract && sameAddress(tx.created_contract.hash, address)) {
      hint!.isContract = true
      hint!.creator = tx.from.hash.toLowerCase()
      hint!.creationTx = tx.hash.toLowerCase()
    }
  }
  return hint
}

export const getCodeCall = (address: string): RpcCallSpec => ({ method: 'eth_getCode', params: [address, 'latest'] })

/** The size in bytes of an `eth_getCode` answer. */
export function codeSize(raw: unknown, address: string): number {
  if (typeof raw !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(raw))
    throw new AppError('protocol', `The code answered for ${address} is not hex bytes.`)
  const bytes = (raw.length - 2) / 2
  if (bytes > MAX_CODE_BYTES)
    throw new AppError(
      'protocol',
      `The code answered for ${address} is ${bytes.toLocaleString('en-US')} bytes; at most ${MAX_CODE_BYTES.toLocaleString('en-US')} are read.`,
    )
  return bytes
}

/** EIP-1967's storage slots: keccak256 of each name, minus one. */
export const EIP1967_SLOTS: Record<keyof ProxySlots, string> = {
  implementation: '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
  admin: '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103',
  beacon: '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50',
}
export const SLOT_NAMES = Object.keys(EIP1967_SLOTS) as (keyof ProxySlots)[]

export const slotCalls = (address: string): RpcCallSpec[] =>
  SLOT_NAMES.map((name) => ({ method: 'eth_getStorageAt', params: [address, EIP1967_SLOTS[name], 'latest'] }))

/** The address an EIP-1967 slot holds; null when empty (or not an address). */
export function slotAddress(raw: unknown, slot: string, address: string): string | null {
  if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(raw))
    throw new AppError('protocol', `The ${slot} slot answered for ${address} is not a 32-byte word.`)
  const word = raw.slice(2).padStart(64, '0').toLowerCase()
  if (!/^0{24}/.test(word)) return null
  const held = `0x${word.slice(24)}`
  return held === ZERO_ADDRESS ? null : held
}
