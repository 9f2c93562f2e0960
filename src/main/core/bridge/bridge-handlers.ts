import type { AppInfo } from '@shared/bridge/contract'
import type { BridgeHandlers } from './bridge-host'
import type { CoreServices } from '../core-services'
import type { Clock } from '../util/clock'
import { ProfileUseCases } from '../profiles/profile-use-cases'
import { KeyUseCases } from '../keys/key-use-cases'
import { ActiveReads } from '../data/active-reads'
import { WatchlistBackup } from '../watchlists/watchlist-backup'
import { EntityReads } from '../entities/entity-reads'
import { activeParts, keyParts, profileParts } from '../use-case-parts'

/**
 * Every bridge call, translated to one method of the core's services. Inputs arrive parsed by
 * BridgeHost against call-schemas.ts (an address already a lowercase `Address`); what a call
 * does beyond one store lives in a use-case class beside the store it starts from.
 */
export function bridgeHandlers(
  s: CoreServices,
  info: AppInfo,
  clock: Clock,
  setVisible: (v: boolean) => void,
): BridgeHandlers {
  const profiles = new ProfileUseCases(profileParts(s))
  const keys = new KeyUseCases(keyParts(s), clock)
  const reads = new ActiveReads(activeParts(s))
  const backup = new WatchlistBackup(s.watchlists, s.notes)
  const entities = new EntityReads({ activeFor: (n) => s.runtimes.activeFor(n), entities: s.entities, clock })
  return {
    'app.info': () => info,
    'app.setVisible': ({ visible }) => (setVisible(visible), null),
    'app.notices': () => s.notices,
    'sandbox.status': () => s.sandbox.status,
    'sandbox.start': () => (void s.sandbox.start().catch(() => {}), s.sandbox.status),
    'sandbox.stop': async () => (await s.sandbox.stop(), s.sandbox.status),
    'sandbox.reset': async () => (await s.sandbox.reset(), s.sandbox.status),

    'profiles.list': () => s.profileViews(),
    'profiles.save': (input) => profiles.save(input),
    'profiles.remove': ({ id }) => profiles.remove(id),
    'profiles.activate': ({ id }) => profiles.activate(id),
    'profiles.setLimits': ({ id, limits, billing }) => profiles.setLimits(id, limits, billing),

    'key.status': ({ profileId }) => keys.status(profileId),
    'key.set': ({ profileId, key, sessionOnly }) => keys.set(profileId, key, sessionOnly),
    'key.clear': ({ profileId }) => keys.clear(profileId),
    'key.test': ({ profileId }) => keys.test(profileId),

    'data.balances': (input) => reads.balances(input),
    'data.transactions': (input) => reads.transactions(input),
    'rpc.call': ({ network, method, params }) => reads.rpc(network, method, params),
    'rpc.batch': ({ network, calls }) => reads.rpcBatch(network, calls),
    'work.cancel': ({ scope }) => ({ cancelled: s.cancelScope(scope) }),
    'limiter.state': () => s.limiterState(),
    'height.get': () => s.heightViews(),
    'connection.get': () => s.connection.view(),
    'connection.setWorkOffline': ({ on }) => s.connection.setWorkOffline(on),

    'settings.get': () => s.settings.settings,
    'settings.set': (patch) => s.settings.setSettings(patch),

    'watchlists.list': () => s.watchlists.list(),
    'watchlists.create': ({ name }) => s.watchlists.create(name),
    'watchlists.rename': ({ id, name }) => s.watchlists.rename(id, name),
    'watchlists.delete': async ({ id }) => (await s.watchlists.delete(id), null),
    'watchlists.addEntry': ({ listId, entry }) => s.watchlists.addEntry(listId, entry),
    'watchlists.addEntries': ({ listId, entries }) => s.watchlists.addEntries(listId, entries),
    'watchlists.updateEntry': ({ listId, entryId, patch }) => s.watchlists.updateEntry(listId, entryId, patch),
    'watchlists.removeEntry': ({ listId, entryId }) => s.watchlists.removeEntry(listId, entryId),
    'watchlists.moveEntry': ({ fromListId, toListId, entryId }) =>
      s.watchlists.moveEntry(fromListId, toListId, entryId),
    'watchlists.import': ({ format, text, listName }) => backup.import(format, text, listName),
    'watchlists.export': ({ format, listId }) => backup.export(format, listId),

    'notes.list': () => s.notes.list(),
    'notes.set': (note) => s.notes.set(note),
    'labels.list': () => s.labels.list(),
    'labels.preview': ({ text, network }) => s.labels.preview(text, network),
    'labels.import': ({ text, network, replace, skipBad }) => s.labels.import(text, network, replace, { skipBad }),
    'labels.export': () => s.labels.export(),
    'cases.list': () => s.cases.list(),
    'cases.create': ({ name, first }) => s.cases.create(name, first),
    'cases.rename': ({ id, name }) => s.cases.rename(id, name),
    'cases.delete': async ({ id }) => (await s.cases.delete(id), null),
    'cases.addAddress': ({ id, ...a }) => s.cases.addAddress(id, a),
    'cases.addAddresses': ({ id, addresses }) => s.cases.addAddresses(id, addresses),
    'cases.updateAddress': ({ id, address, network, ...patch }) =>
      s.cases.updateAddress(id, { address, network }, patch),
    'cases.removeAddress': ({ id, ...a }) => s.cases.removeAddress(id, a),
    'cases.setNotes': ({ id, notes }) => s.cases.setNotes(id, notes),
    'cases.setGraph': ({ id, graph }) => s.cases.setGraph(id, graph),
    'cases.addPath': ({ id, path }) => s.cases.addPath(id, path),
    'cases.logFetch': ({ id, what, cost }) => s.cases.logFetch(id, { what, cost }),
    'cases.export': ({ id }) => s.cases.export(id),
    'evidence.part': (input) => s.evidence.part(input),
    'evidence.write': (input) => s.evidence.write(input),
    'evidence.verify': ({ folder }) => s.evidence.verify(folder),
    'cases.import': ({ text }) => s.cases.import(text),
    'search.query': ({ query, limit }) => s.search.query(query, limit),
    'analysis.networks': ({ address, refresh, cacheOnly }) => reads.presence(address, { refresh, cacheOnly }),
    'watch.estimate': ({ listId }) => s.watch.estimate(listId),
    'watch.check': ({ listId }) => s.watch.check(listId),
    'watch.status': () => s.watch.statuses(),
    'watch.markSeen': ({ listId, entryId }) => s.watch.markSeen(listId, entryId),
    'watch.settings': () => s.watch.settings(),
    'watch.setSettings': (patch) => s.watch.setSettings(patch),
    'approvals.view': ({ network, address, cacheOnly }) => reads.approvals(network, address, cacheOnly),
    'approvals.scan': ({ network, address }) => reads.scanApprovals(network, address),
    'approvals.stopScan': ({ network, address }) => reads.stopApprovalScan(network, address),
    'report.pdfAvailable': () => s.reports.available(),
    'report.savePdf': ({ html, filename }) => s.reports.save(html, filename),
    'files.check': (input) => s.fileExit.check(input),
    'labels.set': ({ address, network, label, note, seen }) => s.labels.set(address, network, { label, note }, seen),
    'labels.remove': ({ address, network, seen }) => s.labels.remove(address, network, seen),
    'entities.cost': (input) => entities.cost(input),
    'entities.address': (input) => entities.address(input),
    'entities.proxy': (input) => entities.proxy(input),
    'entities.receipt': (input) => entities.receipt(input),
    'entities.internal': (input) => entities.internal(input),
    'entities.block': (input) => entities.block(input),
    'entities.traceCost': (input) => entities.traceCost(input),
    'entities.traceMany': (input) => entities.traceMany(input),
    'entities.internalOf': (input) => entities.internalOf(input),
    'entities.functions': (input) => entities.functions(input),
    'entities.readContract': (input) => entities.readContract(input),
  }
}
