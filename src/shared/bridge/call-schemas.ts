import { z } from 'zod'
import { limitsSchema, networkName, profileInputSchema } from '../domain/profile'

/**
 * The input schema of every bridge call. Main validates each call against these; the
 * renderer imports only their types (through contract.ts), so zod stays out of its bundle.
 */
const empty = z.object({}).strict()
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected 0x followed by 40 hex characters')
const id = z.string().min(1).max(80)
/** Who waits for the work: the user first, prefetch next, background last. */
export const prioritySchema = z.enum(['user', 'prefetch', 'background'])

/** A view's scope: leaving the view cancels its queued work (`work.cancel`). */
const scope = z.string().min(1).max(80).optional()

const watchEntryInput = z.object({
  address,
  network: networkName,
  label: z.string().trim().max(80).default(''),
  note: z.string().max(2000).default(''),
  tags: z.array(z.string().trim().min(1).max(40)).max(20).default([]),
})

export const bridgeCalls = {
  'app.info': empty,
  'app.setVisible': z.object({ visible: z.boolean() }).strict(),
  'app.notices': empty,
  'sandbox.status': empty,

  'profiles.list': empty,
  'profiles.save': profileInputSchema,
  'profiles.remove': z.object({ id }).strict(),
  'profiles.activate': z.object({ id }).strict(),
  'profiles.setLimits': z.object({ id, limits: limitsSchema }).strict(),

  'key.status': z.object({ profileId: id }).strict(),
  'key.set': z
    .object({
      profileId: id,
      key: z.string().trim().min(8, 'an API key has at least 8 characters').max(256).regex(/^[\x21-\x7e]+$/, 'an API key has no spaces or control characters'),
      sessionOnly: z.boolean().default(false),
    })
    .strict(),
  'key.clear': z.object({ profileId: id }).strict(),
  'key.test': z.object({ profileId: id }).strict(),

  'data.balances': z
    .object({ network: networkName, address, priority: prioritySchema.default('user'), scope, refresh: z.boolean().default(false) })
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
    })
    .strict(),
  'rpc.call': z
    .object({
      network: networkName,
      method: z.string().regex(/^(eth|net|web3)_[A-Za-z0-9_]+$/, 'only standard eth_, net_ and web3_ methods'),
      params: z.array(z.unknown()).max(64).default([]),
    })
    .strict(),
  'rpc.batch': z
    .object({
      network: networkName,
      calls: z
        .array(
          z.object({
            method: z.string().regex(/^(eth|net|web3)_[A-Za-z0-9_]+$/, 'only standard eth_, net_ and web3_ methods'),
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

  'settings.get': empty,
  'settings.set': z.object({ allowRemoteIcons: z.boolean().optional() }).strict(),

  'watchlists.list': empty,
  'watchlists.create': z.object({ name: z.string().trim().min(1).max(60) }).strict(),
  'watchlists.rename': z.object({ id, name: z.string().trim().min(1).max(60) }).strict(),
  'watchlists.delete': z.object({ id }).strict(),
  'watchlists.addEntry': z.object({ listId: id, entry: watchEntryInput }).strict(),
  'watchlists.updateEntry': z
    .object({
      listId: id,
      entryId: id,
      patch: z
        .object({
          label: z.string().trim().max(80),
          note: z.string().max(2000),
          tags: z.array(z.string().trim().min(1).max(40)).max(20),
        })
        .partial()
        .strict(),
    })
    .strict(),
  'watchlists.removeEntry': z.object({ listId: id, entryId: id }).strict(),
  'watchlists.moveEntry': z.object({ fromListId: id, toListId: id, entryId: id }).strict(),
  'watchlists.import': z
    .object({ format: z.enum(['json', 'csv']), text: z.string().max(5_000_000), listName: z.string().trim().min(1).max(60).optional() })
    .strict(),
  'watchlists.export': z.object({ format: z.enum(['json', 'csv']), listId: id.optional() }).strict(),

  // Watch check (issue 11): without listId, every list's entries.
  'watch.estimate': z.object({ listId: id.optional() }).strict(),
  'watch.check': z.object({ listId: id.optional() }).strict(),
  'watch.status': empty,
  'watch.markSeen': z.object({ listId: id.optional(), entryId: id.optional() }).strict(),
  'watch.settings': empty,
  'watch.setSettings': z.object({ periodic: z.boolean().optional(), budgetFraction: z.number().min(0.001).max(0.5).optional() }).strict(),
} as const


export function isBridgeCallName(name: unknown): name is keyof typeof bridgeCalls {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(bridgeCalls, name)
}
