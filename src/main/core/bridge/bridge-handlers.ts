import type { AppInfo } from '../../../shared/bridge/contract'
import { checkAddress, normaliseAddress } from '../../../shared/domain/address'
import { SANDBOX_PROFILE_ID } from '../../../shared/domain/profile'
import { AppError } from '../util/app-error'
import { safeExcerpt } from '../service/response-errors'
import type { BridgeHandlers } from './bridge-host'
import type { CoreServices } from '../core-services'
import type { Clock } from '../util/clock'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '../../../shared/domain/amount'
import { notesFromImport, withNotes } from '../notes/notes-io'

/** Checks the EIP-55 checksum too (the call schema checks only the form); returns lowercase. */
function address(input: string, field = 'address'): string {
  const check = checkAddress(input)
  if (!check.ok) throw new AppError('invalid-input', check.message, { field })
  return normaliseAddress(check.address)
}

/** Every bridge call, translated to the core's services. Inputs arrive validated by BridgeHost. */
export function bridgeHandlers(
  s: CoreServices,
  info: AppInfo,
  clock: Clock,
  setVisible: (v: boolean) => void,
): BridgeHandlers {
  const sandboxKeyManaged = (profileId: string): void => {
    if (profileId === SANDBOX_PROFILE_ID) {
      throw new AppError(
        'invalid-input',
        "The built-in sandbox's key is managed by Chainscope; it cannot be set or cleared.",
        { field: 'profileId' },
      )
    }
  }
  return {
    'app.info': () => info,
    'app.setVisible': ({ visible }) => {
      setVisible(visible)
      return null
    },
    'app.notices': () => s.notices,
    'sandbox.status': () => s.sandbox.status,

    'profiles.list': () => s.profileViews(),
    'profiles.save': async (input) => {
      // The entry the key is in now: re-pointing the profile names another (keyRef).
      const before = input.id && s.settings.find(input.id) ? s.settings.keyRef(input.id) : null
      const { profile, addressesChanged, originsChanged } = s.settings.save(input)
      const runtime = s.runtime(profile.id)
      runtime.limiters.setLimits(profile.limits)
      if (addressesChanged) runtime.data.clearCache()
      // A key is bound to the origins it was given for: a re-pointed profile asks for it again,
      // so no caller of the bridge can send the stored key to a host of its choosing.
      if (originsChanged && before) await s.keys.clear(before)
      s.profilesChanged()
      return s.profileViews().find((p) => p.id === profile.id)!
    },
    'profiles.remove': async ({ id }) => {
      s.settings.get(id)
      const key = s.settings.keyRef(id)
      s.settings.remove(id)
      s.forgetRuntime(id)
      s.quota.remove(id)
      await s.snapshots.removeProfile(id)
      s.profilesChanged()
      // The profile is gone either way; a keychain that refuses is reported, not hidden.
      await s.keys.clear(key)
      return null
    },
    'profiles.activate': async ({ id }) => {
      s.settings.activate(id)
      s.profilesChanged()
      if (id === SANDBOX_PROFILE_ID) void s.sandbox.ensure().catch(() => {})
      return s.profileViews().find((p) => p.id === id)!
    },
    'profiles.setLimits': ({ id, limits, billing }) => {
      const profile = s.settings.setLimits(id, limits, billing)
      s.runtime(id).limiters.setLimits(profile.limits)
      s.profilesChanged()
      return s.profileViews().find((p) => p.id === id)!
    },

    // The profile id only finds this data folder's profile; the entry is the settings' choice (keyRef).
    'key.status': async ({ profileId }) => {
      const ref = s.settings.keyRef(profileId)
      if (profileId === SANDBOX_PROFILE_ID) {
        const status = await s.keys.status(ref)
        return { ...status, storage: status.set ? 'session' : 'none' }
      }
      return s.keys.status(ref)
    },
    'key.set': async ({ profileId, key, sessionOnly }) => {
      const ref = s.settings.keyRef(profileId)
      sandboxKeyManaged(profileId)
      const status = await s.keys.set(ref, key, sessionOnly)
      return status
    },
    'key.clear': async ({ profileId }) => {
      const ref = s.settings.keyRef(profileId)
      sandboxKeyManaged(profileId)
      return s.keys.clear(ref)
    },
    'key.test': async ({ profileId }) => {
      const runtime = s.runtime(profileId)
      const profile = await runtime.ready()
      const network = profile.networks[0]?.name
      if (!network)
        throw new AppError('invalid-input', 'This profile has no networks to test against.', { field: 'profileId' })
      const started = clock.now()
      const result = await runtime.client.rpc(network, { method: 'eth_blockNumber', params: [] }, { priority: 'user' })
      const height = parseHexQuantity(result, MAX_SAFE_BIGINT)
      // Redact, then cut (issue 10 item 6): a cut key is no longer recognised as one.
      if (height === null)
        throw new AppError(
          'protocol',
          `eth_blockNumber answered ${safeExcerpt(JSON.stringify(result) ?? 'nothing', (t) => s.redact(t), 40)}, not a block number.`,
        )
      s.observeHead(profileId, network, Number(height))
      return { latencyMs: clock.now() - started, height: height.toString() }
    },

    'data.balances': async (input) => {
      const addr = address(input.address)
      const { runtime } = await s.activeFor(input.network)
      return runtime.data.balances({ ...input, address: addr })
    },
    'data.transactions': async (input) => {
      const addr = address(input.address)
      const { runtime } = await s.activeFor(input.network)
      return runtime.data.transactions({ ...input, address: addr })
    },
    'rpc.call': async ({ network, method, params }) => {
      const { runtime } = await s.activeFor(network)
      const result = await runtime.client.rpc(network, { method, params }, { priority: 'user' })
      if (method === 'eth_blockNumber') {
        const h = parseHexQuantity(result, MAX_SAFE_BIGINT)
        if (h !== null) s.observeHead(runtime.profileId, network, Number(h))
      }
      return { result }
    },
    'rpc.batch': async ({ network, calls }) => {
      const { runtime } = await s.activeFor(network)
      return runtime.client.rpcBatch(network, calls, { priority: 'user' })
    },
    'work.cancel': ({ scope }) => ({ cancelled: s.cancelScope(scope) }),
    'limiter.state': () => s.limiterState(),
    'height.get': () => s.heightViews(),

    'settings.get': () => s.settings.settings,
    'settings.set': (patch) => s.settings.setSettings(patch),

    'watchlists.list': () => s.watchlists.list(),
    'watchlists.create': ({ name }) => s.watchlists.create(name),
    'watchlists.rename': ({ id, name }) => s.watchlists.rename(id, name),
    'watchlists.delete': ({ id }) => {
      s.watchlists.delete(id)
      return null
    },
    'watchlists.addEntry': ({ listId, entry }) =>
      s.watchlists.addEntry(listId, { ...entry, address: address(entry.address, 'entry.address') }),
    'watchlists.updateEntry': ({ listId, entryId, patch }) => s.watchlists.updateEntry(listId, entryId, patch),
    'watchlists.removeEntry': ({ listId, entryId }) => s.watchlists.removeEntry(listId, entryId),
    'watchlists.moveEntry': ({ fromListId, toListId, entryId }) =>
      s.watchlists.moveEntry(fromListId, toListId, entryId),
    'watchlists.import': ({ format, text, listName }) => {
      // Notes ride in the JSON backup (notes-io.ts): checked first, so a bad note imports nothing.
      const carried = format === 'json' ? notesFromImport(text) : { notes: [], notesOnly: false }
      const counts = carried.notesOnly ? { lists: 0, entries: 0 } : s.watchlists.import(format, text, listName)
      return carried.notes.length ? { ...counts, notes: s.notes.merge(carried.notes) } : counts
    },
    'watchlists.export': ({ format, listId }) => {
      const file = s.watchlists.export(format, listId)
      return listId === undefined ? withNotes(file, s.notes.list()) : file
    },

    'notes.list': () => s.notes.list(),
    'notes.set': ({ key, ...rest }) => s.notes.set({ ...rest, key: key.toLowerCase() }),
    'labels.list': () => s.labels.list(),
    'labels.preview': ({ text, network }) => s.labels.preview(text, network),
    'labels.import': ({ text, network, replace }) => s.labels.import(text, network, replace),
    'labels.export': () => s.labels.export(),
    'cases.list': () => s.cases.list(),
    'cases.create': ({ name, first }) =>
      s.cases.create(name, first && { ...first, address: address(first.address, 'first.address') }),
    'cases.rename': ({ id, name }) => s.cases.rename(id, name),
    'cases.delete': ({ id }) => (s.cases.delete(id), null),
    'cases.addAddress': ({ id, ...a }) => s.cases.addAddress(id, { ...a, address: address(a.address) }),
    'cases.updateAddress': ({ id, address: a, network, ...patch }) =>
      s.cases.updateAddress(id, { address: a, network }, patch),
    'cases.removeAddress': ({ id, ...a }) => s.cases.removeAddress(id, a),
    'cases.setNotes': ({ id, notes }) => s.cases.setNotes(id, notes),
    'cases.setGraph': ({ id, graph }) => s.cases.setGraph(id, graph),
    'cases.export': ({ id }) => s.cases.export(id),
    'cases.import': ({ text }) => s.cases.import(text),
    'search.query': ({ query, limit }) => s.search.query(query, limit),
    'analysis.networks': async ({ address: input, refresh }) => {
      const addr = address(input)
      const runtime = s.active()
      const profile = await runtime.ready()
      return s.presence.check(
        runtime,
        profile.networks.map((n) => n.name),
        addr,
        refresh,
      )
    },
    'watch.estimate': ({ listId }) => s.watch.estimate(listId),
    'watch.check': ({ listId }) => s.watch.check(listId),
    'watch.status': () => s.watch.statuses(),
    'watch.markSeen': ({ listId, entryId }) => s.watch.markSeen(listId, entryId),
    'watch.settings': () => s.watch.settings(),
    'watch.setSettings': (patch) => s.watch.setSettings(patch),
    'approvals.view': async ({ network, address: a }) =>
      s.approvals.view((await s.activeFor(network)).runtime, network, address(a)),
    'approvals.scan': async ({ network, address: a }) =>
      s.approvals.scan((await s.activeFor(network)).runtime, network, address(a)),
    'approvals.stopScan': ({ network, address: a }) => ({
      stopped: s.approvals.stop(s.active().profileId, network, address(a)),
    }),
    'report.pdfAvailable': () => s.reports.available(),
    'report.savePdf': ({ html, filename }) => s.reports.save(html, filename),
    'labels.set': ({ address: a, network, label, note, seen }) =>
      s.labels.set(address(a), network, { label, note }, seen),
    'labels.remove': ({ address: a, network, seen }) => s.labels.remove(address(a), network, seen),
  }
}
