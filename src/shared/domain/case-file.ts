import { z } from 'zod'
import { lowerAddressSchema } from './address'
import { networkName } from './profile'
import { WATCH_LIMITS } from './watch-limits'
import { CASE_LIMITS } from './case-limits'

export { CASE_LIMITS }

/**
 * A case: a named investigation with its addresses on any network, its notes, the labels the
 * analyst gave its addresses, and the state of its flow graph. One schema for the saved file
 * (`cases.json`), for a case exported as one file and for the import of such a file.
 *
 * The graph state is its own small versioned object so the flow graph can adopt and extend it
 * (a later version migrates from 1) without changing the case around it.
 */

const iso = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO time')
const node = z.object({ address: lowerAddressSchema, network: networkName }).strict()

const graphFiltersSchema = z
  .object({
    /** A token address, or "native" for the coin; null for every asset. */
    asset: z.string().max(64).nullable(),
    /** In the asset's smallest unit, as a decimal string (amounts are bigint). */
    minAmount: z
      .string()
      .regex(/^\d{1,78}$/, 'expected a whole number of the smallest unit')
      .nullable(),
    from: iso.nullable(),
    to: iso.nullable(),
    direction: z.enum(['in', 'out', 'both']),
  })
  .strict()

export const graphStateSchema = z
  .object({
    version: z.literal(1),
    expanded: z.array(node).max(CASE_LIMITS.expanded),
    hopLimit: z.number().int().min(1).max(CASE_LIMITS.hopLimit),
    filters: graphFiltersSchema,
    selected: node.nullable(),
  })
  .strict()

const caseAddressSchema = z
  .object({
    address: lowerAddressSchema,
    network: networkName,
    label: z.string().max(WATCH_LIMITS.label),
    note: z.string().max(WATCH_LIMITS.note),
    addedAt: iso,
  })
  .strict()

export const caseSchema = z
  .object({
    id: z.string().min(1).max(80),
    name: z.string().trim().min(1).max(CASE_LIMITS.name),
    createdAt: iso,
    updatedAt: iso,
    addresses: z
      .array(caseAddressSchema)
      .max(CASE_LIMITS.addresses)
      .refine(
        (list) => new Set(list.map((a) => `${a.network}|${a.address}`)).size === list.length,
        'an address is listed twice on the same network',
      ),
    notes: z.string().max(CASE_LIMITS.notes),
    graph: graphStateSchema,
  })
  .strict()

export const casesFileSchema = z
  .object({ version: z.literal(1), cases: z.array(caseSchema).max(CASE_LIMITS.cases) })
  .strict()

/** One case as its own file (export and import). */
export const caseExportSchema = z
  .object({ format: z.literal('chainscope-case'), version: z.literal(1), case: caseSchema })
  .strict()

export type GraphState = z.infer<typeof graphStateSchema>
export type CaseAddress = z.infer<typeof caseAddressSchema>
export type CaseFile = z.infer<typeof caseSchema>

export const CASES_VERSION = 1

export function emptyGraphState(): GraphState {
  return {
    version: 1,
    expanded: [],
    hopLimit: 2,
    filters: { asset: null, minAmount: null, from: null, to: null, direction: 'both' },
    selected: null,
  }
}
