import { z } from 'zod'
import { addressInput as address } from './address-input'
import { networkName } from '../domain/profile'

/** A transaction hash, lowercase. */
const txHash = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'expected a transaction hash (0x and 64 hex digits)')
  .transform((h) => h.toLowerCase())
/** The transactions the user chose to trace for an address (at most 200 at a time). */
const txHashes = z.array(txHash).min(1).max(200, 'at most 200 transactions are traced at a time')
/** A block number as the user gives it: a whole number a JS number holds exactly. */
const blockNumber = z.number().int('a block number is a whole number').min(0).max(Number.MAX_SAFE_INTEGER)
const refresh = z.boolean().default(false)

/** Interfaces the Read contract panel offers without an ABI. */
export const KNOWN_INTERFACES = ['ERC-20', 'ERC-721', 'ERC-1155', 'Ownable', 'ERC-165'] as const
export type KnownInterface = (typeof KNOWN_INTERFACES)[number]
/** The largest ABI text read (main's abi-codec.ts checks the same bound with its own words). */
export const ABI_MAX_CHARS = 2_000_000
/** An ABI the user pasted or loaded, or a well-known interface: exactly one. */
const abiSource = {
  abi: z
    .string()
    .max(ABI_MAX_CHARS, `an ABI is at most ${ABI_MAX_CHARS.toLocaleString('en-US')} characters`)
    .optional(),
  standard: z.enum(KNOWN_INTERFACES).optional(),
}
const oneSource = (v: { abi?: string; standard?: string }): boolean =>
  (v.abi === undefined) !== (v.standard === undefined)
const oneSourceMessage = { message: 'give either an ABI or a well-known interface', path: ['abi'] }

/**
 * What an address, a transaction and a block are, read from the RPC endpoint (issue 40; answers
 * in entity-types.ts). Each user-started read has its cost first from `entities.cost`.
 */
export const entityCalls = {
  'entities.cost': z
    .object({
      network: networkName,
      read: z.enum(['address', 'proxy', 'receipt', 'trace', 'block', 'block-full', 'call']),
      /** The address, the transaction hash or the block number (decimal) the read is of. */
      id: z
        .string()
        .regex(
          /^(0x[0-9a-fA-F]{40}|0x[0-9a-fA-F]{64}|\d{1,16})$/,
          'expected an address, a transaction hash or a block number',
        ),
    })
    .strict(),
  'entities.address': z.object({ network: networkName, address, refresh }).strict(),
  'entities.proxy': z.object({ network: networkName, address }).strict(),
  'entities.receipt': z.object({ network: networkName, hash: txHash, refresh }).strict(),
  'entities.internal': z.object({ network: networkName, hash: txHash, refresh }).strict(),
  'entities.block': z
    .object({ network: networkName, number: blockNumber, full: z.boolean().default(false), refresh })
    .strict(),
  'entities.traceCost': z.object({ network: networkName, hashes: txHashes }).strict(),
  'entities.traceMany': z.object({ network: networkName, hashes: txHashes }).strict(),
  'entities.functions': z.object(abiSource).strict().refine(oneSource, oneSourceMessage),
  'entities.readContract': z
    .object({
      network: networkName,
      address,
      ...abiSource,
      fn: z.string().min(1).max(2000),
      args: z.array(z.string().max(100_000)).max(64).default([]),
    })
    .strict()
    .refine(oneSource, oneSourceMessage),
} as const
