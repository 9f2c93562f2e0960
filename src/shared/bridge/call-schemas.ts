import { z } from 'zod'
import { reportPdfCalls } from './report-pdf'
import { fileCheckCalls } from './file-check'
import { labelEditCalls } from './label-edit'
import { entityCalls } from './entity-calls'
import { addressInput as address } from './address-input'
import { ADDRESS_OR_HASH_PATTERN } from '../domain/address'
import { watchAlsoNetworks, watchLabel, watchListName, watchNote, watchTags } from '../domain/watch-schemas'
import { apiKeySchema, billingSchema, limitsSchema, networkName, profileInputSchema } from '../domain/profile'
import { writeMethodRefusal } from '../domain/rpc-read-only'
import { CASE_LIMITS, graphStateSchema } from '../domain/case-file'
import { WATCH_LIMITS } from '../domain/watch-limits'

/**
 * The input schema of every bridge call. Main validates each call against these; the
 * renderer imports only their types (through contract.ts), so zod stays out of its bundle.
 */
const empty = z.object({}).strict()
const id = z.string().min(1).max(80)
/** Who waits for the work: the user first, prefetch next, background last. */
export const prioritySchema = z.enum(['user', 'prefetch', 'background'])

/** A view's scope: leaving the view cancels its queued work (`work.cancel`). */
const scope = z.string().min(1).max(80).optional()

const listName = z.string().trim().pipe(watchListName)
const caseName = z
  .string()
  .trim()
  .min(1, 'a case needs a name')
  .max(CASE_LIMITS.name, `a case name is at most ${CASE_LIMITS.name} characters`)

/** A standard read method: the console never signs or sends (`writeMethodRefusal`), in a batch neither. */
const rpcMethod = z
  .string()
  .regex(/^(eth|net|web3)_[A-Za-z0-9_]+$/, 'only standard eth_, net_ and web3_ methods')
  .superRefine((method, ctx) => {
    const refusal = writeMethodRefusal(method)
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal })
  })

const watchEntryInput = z.object({
  address,
  network: networkName,
  label: z.string().trim().pipe(watchLabel).default(''),
  note: watchNote.default(''),
  tags: z.array(z.string().trim()).pipe(watchTags).default([]),
  alsoNetworks: watchAlsoNetworks.optional(),
})

/** A case's address with what the analyst wrote about it (both omitted: left as they are). */
const caseAddressInput = z
  .object({
    id,
    address,
    network: networkName,
    label: z.string().trim().pipe(watchLabel).optional(),
    note: watchNote.optional(),
  })
  .strict()

export const bridgeCalls = {
  'app.info': empty,
  'app.setVisible': z.object({ visible: z.boolean() }).strict(),
  'app.notices': empty,
  'sandbox.status': empty,
  'sandbox.start': empty,
  'sandbox.stop': empty,
  /** Destructive (back to the seed, the profile's cache cleared): the caller says it means it. */
  'sandbox.reset': z.object({ confirm: z.literal(true, 'a reset must be confirmed (confirm: true)') }).strict(),

  'profiles.list': empty,
  'profiles.save': profileInputSchema,
  'profiles.remove': z.object({ id }).strict(),
  'profiles.activate': z.object({ id }).strict(),
  'profiles.setLimits': z.object({ id, limits: limitsSchema, billing: billingSchema.optional() }).strict(),

  'key.status': z.object({ profileId: id }).strict(),
  'key.set': z
    .object({
      profileId: id,
      key: apiKeySchema,
      sessionOnly: z.boolean().default(false),
    })
    .strict(),
  'key.clear': z.object({ profileId: id }).strict(),
  'key.test': z.object({ profileId: id }).strict(),

  'data.balances': z
    .object({
      network: networkName,
      address,
      priority: prioritySchema.default('user'),
      scope,
      refresh: z.boolean().default(false),
      /** Answer only from the cache or a snapshot of any age, never a request (`not-found` otherwise). */
      cacheOnly: z.boolean().default(false),
    })
    .strict(),
  'data.transactions': z
    .object({
      network: networkName,
      address,
      /** Opaque cursor from a previous page; null for the first page. */
      cursor: z.string().max(4096).nullable().default(null),
      priority: prioritySchema.default('user'),
      scope,
      refresh: z.boolean().default(false),
      /** Answer only from the cache or a snapshot of any age, never a request (`not-found` otherwise). */
      cacheOnly: z.boolean().default(false),
    })
    .strict(),
  'rpc.call': z
    .object({
      network: networkName,
      method: rpcMethod,
      params: z.array(z.unknown()).max(64).default([]),
    })
    .strict(),
  'rpc.batch': z
    .object({
      network: networkName,
      calls: z
        .array(
          z.object({
            method: rpcMethod,
            params: z.array(z.unknown()).max(64).default([]),
          }),
        )
        .min(1)
        .max(20),
    })
    .strict(),
  'work.cancel': z.object({ scope: z.string().min(1).max(80) }).strict(),
  'limiter.state': empty,
  'height.get': empty,
  'connection.get': empty,
  'connection.setWorkOffline': z.object({ on: z.boolean() }).strict(),

  'settings.get': empty,
  'settings.set': z.object({ allowRemoteIcons: z.boolean().optional() }).strict(),

  'watchlists.list': empty,
  'watchlists.create': z.object({ name: listName }).strict(),
  'watchlists.rename': z.object({ id, name: listName }).strict(),
  'watchlists.delete': z.object({ id }).strict(),
  'watchlists.addEntry': z.object({ listId: id, entry: watchEntryInput }).strict(),
  'watchlists.addEntries': z
    .object({ listId: id, entries: z.array(watchEntryInput).min(1).max(WATCH_LIMITS.entries) })
    .strict(),
  'watchlists.updateEntry': z
    .object({
      listId: id,
      entryId: id,
      patch: z
        .object({
          label: z.string().trim().pipe(watchLabel),
          note: watchNote,
          tags: z.array(z.string().trim()).pipe(watchTags),
          alsoNetworks: watchAlsoNetworks,
        })
        .partial()
        .strict(),
    })
    .strict(),
  'watchlists.removeEntry': z.object({ listId: id, entryId: id }).strict(),
  'watchlists.moveEntry': z.object({ fromListId: id, toListId: id, entryId: id }).strict(),
  'watchlists.import': z
    .object({ format: z.enum(['json', 'csv']), text: z.string().max(5_000_000), listName: listName.optional() })
    .strict(),
  'watchlists.export': z.object({ format: z.enum(['json', 'csv']), listId: id.optional() }).strict(),

  // Notes, the cached search and the both-networks summary.
  'notes.list': empty,
  'notes.set': z
    .object({
      kind: z.enum(['tx', 'address']),
      network: networkName,
      // Lowercase here, the case notes are kept by (notes-store.ts).
      key: z
        .string()
        .regex(ADDRESS_OR_HASH_PATTERN, 'expected an address or a transaction hash')
        .transform((k) => k.toLowerCase()),
      text: watchNote,
    })
    .strict(),
  // Address labels: a CSV previewed, then imported with the changes the user picked.
  'labels.list': empty,
  'labels.preview': z.object({ text: z.string().max(5_000_000), network: networkName }).strict(),
  'labels.import': z
    .object({
      text: z.string().max(5_000_000),
      network: networkName,
      replace: z.array(z.string().max(120)).max(10_000).default([]),
      /** The user chose to apply the good rows of a file with bad ones. */
      skipBad: z.boolean().default(false),
    })
    .strict(),
  'labels.export': empty,
  // Cases: a named investigation (case-file.ts holds the saved shape).
  'cases.list': empty,
  'cases.create': z
    .object({ name: caseName, first: z.object({ address, network: networkName }).strict().optional() })
    .strict(),
  'cases.rename': z.object({ id, name: caseName }).strict(),
  'cases.delete': z.object({ id }).strict(),
  'cases.addAddress': caseAddressInput,
  'cases.addAddresses': z
    .object({
      id,
      addresses: z
        .array(
          z.object({ address, network: networkName, label: z.string().trim().pipe(watchLabel).optional() }).strict(),
        )
        .min(1)
        .max(CASE_LIMITS.addresses),
    })
    .strict(),
  'cases.updateAddress': caseAddressInput,
  'cases.removeAddress': z.object({ id, address, network: networkName }).strict(),
  'cases.setNotes': z.object({ id, notes: z.string().max(CASE_LIMITS.notes) }).strict(),
  'cases.setGraph': z.object({ id, graph: graphStateSchema }).strict(),
  'cases.export': z.object({ id }).strict(),
  'cases.import': z.object({ text: z.string().max(5_000_000) }).strict(),
  'search.query': z
    .object({ query: z.string().max(200), limit: z.number().int().min(1).max(100).default(30) })
    .strict(),
  // cacheOnly: what main already knows (earlier answers, snapshots), never a request.
  'analysis.networks': z
    .object({ address, refresh: z.boolean().default(false), cacheOnly: z.boolean().default(false) })
    .strict(),
  // Watch check: without listId, every list's entries.
  'watch.estimate': z.object({ listId: id.optional() }).strict(),
  'watch.check': z.object({ listId: id.optional() }).strict(),
  'watch.status': empty,
  'watch.markSeen': z.object({ listId: id.optional(), entryId: id.optional() }).strict(),
  'watch.settings': empty,
  'watch.setSettings': z
    .object({ periodic: z.boolean().optional(), budgetFraction: z.number().min(0.001).max(0.5).optional() })
    .strict(),
  // cacheOnly: from loaded data alone, no state call (no request).
  'approvals.view': z.object({ network: networkName, address, cacheOnly: z.boolean().default(false) }).strict(),
  'approvals.scan': z.object({ network: networkName, address }).strict(),
  'approvals.stopScan': z.object({ network: networkName, address }).strict(),
  ...reportPdfCalls,
  ...fileCheckCalls,
  ...labelEditCalls,
  ...entityCalls,
} as const

export function isBridgeCallName(name: unknown): name is keyof typeof bridgeCalls {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(bridgeCalls, name)
}
