import { z } from 'zod'
import { lowerAddressSchema } from './address'
import { networkName } from './profile'
import { WATCH_LIMITS } from './watch-limits'
import { CASE_LIMITS } from './case-limits'
import { LOG_LIMITS, logEntrySchema } from './case-log'

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

const graphV1 = {
  expanded: z.array(node).max(CASE_LIMITS.expanded),
  hopLimit: z.number().int().min(1).max(CASE_LIMITS.hopLimit),
  filters: graphFiltersSchema,
  selected: node.nullable(),
}
const graphStateV1Schema = z.object({ version: z.literal(1), ...graphV1 }).strict()

/** Where the analyst left a node on the canvas (graph units, not pixels). */
const positionSchema = z
  .object({ address: lowerAddressSchema, network: networkName, x: z.number().finite(), y: z.number().finite() })
  .strict()

/** Version 2 adds the node positions; a version 1 graph reads as one with none placed. */
export const graphStateSchema = z
  .object({ version: z.literal(2), ...graphV1, positions: z.array(positionSchema).max(CASE_LIMITS.expanded * 4) })
  .strict()

const digits = z.string().regex(/^\d{1,78}$/, 'expected a whole number of the smallest unit')
const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected a transaction hash')

/** One hop of a path answer: the flow between two addresses and the transactions behind it. */
const pathHopSchema = z
  .object({
    from: lowerAddressSchema,
    to: lowerAddressSchema,
    asset: z.string().max(64),
    symbol: z.string().max(64),
    decimals: z.number().int().min(0).max(255).nullable(),
    value: digits,
    count: z.number().int().min(0),
    firstMs: z.number().int().nullable(),
    lastMs: z.number().int().nullable(),
    hashes: z.array(hash).max(CASE_LIMITS.pathHashes),
  })
  .strict()

/** A path question asked in the case's graph and its answer (null: none within the hops). */
export const pathRecordSchema = z
  .object({
    network: networkName,
    from: lowerAddressSchema,
    to: lowerAddressSchema,
    maxHops: z.number().int().min(1).max(10),
    undirected: z.boolean(),
    askedAt: iso,
    answer: z.array(pathHopSchema).max(10).nullable(),
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

const caseSchema = z
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
    paths: z.array(pathRecordSchema).max(CASE_LIMITS.paths),
    log: z.array(logEntrySchema).max(LOG_LIMITS.entries),
  })
  .strict()

/** A case as version 1 saved it: no paths, no positions, no activity log. */
const caseV1Schema = caseSchema.extend({ graph: graphStateV1Schema }).omit({ paths: true, log: true })

/** A case of version 1 or 2 as version 2 holds it (docs/decisions/case-activity-log.md). */
export function migrateCase(raw: unknown, version: number): CaseFile {
  if (version === CASES_VERSION) return caseSchema.parse(raw)
  const v1 = caseV1Schema.parse(raw)
  return { ...v1, graph: { ...v1.graph, version: 2, positions: [] }, paths: [], log: [] }
}

const caseOfAnyVersion = z.union([caseSchema, caseV1Schema])

export const casesFileSchema = z
  .object({ version: z.literal(1), cases: z.array(caseV1Schema).max(CASE_LIMITS.cases) })
  .strict()

/** One case as its own file (export and import), of version 1 or 2. */
export const caseExportSchema = z
  .object({
    format: z.literal('chainscope-case'),
    version: z.union([z.literal(1), z.literal(2)]),
    case: caseOfAnyVersion,
  })
  .strict()

export type GraphState = z.infer<typeof graphStateSchema>
export type CaseAddress = z.infer<typeof caseAddressSchema>
export type CaseFile = z.infer<typeof caseSchema>
export type PathRecord = z.infer<typeof pathRecordSchema>
export type PathHop = z.infer<typeof pathHopSchema>

export const CASES_VERSION = 2

export function emptyGraphState(): GraphState {
  return {
    version: 2,
    expanded: [],
    hopLimit: 2,
    filters: { asset: null, minAmount: null, from: null, to: null, direction: 'both' },
    selected: null,
    positions: [],
  }
}
