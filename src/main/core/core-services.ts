import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { BridgeEventName, BridgeEvents, LimiterState, Notice, ProfileView } from '@shared/bridge/contract'
import { SANDBOX_PROFILE_ID } from '@shared/domain/profile'
import { DiskReports } from './util/disk-error'
import { SnapshotStore } from './data/snapshot-store'
import type { HeightWatcherOptions } from './height/height-watcher'
import { ActiveHeight } from './height/active-height'
import { KeyStore, type KeychainBackend } from './keys/key-store'
import { QuotaFile } from './limiter/quota-store'
import type { Logger, Redactor } from './util/logger'
import type { RuntimeTuning } from './profiles/profile-runtime'
import { ProfileRuntimes } from './profiles/profile-runtimes'
import { SettingsStore } from './profiles/settings-store'
import { SandboxManager } from './sandbox/sandbox-manager'
import type { SandboxLauncher } from './sandbox/sandbox-launcher'
import type { Clock } from './util/clock'
import { WatchService, type DesktopNotifier } from './watch/watch-service'
import { WatchlistStore } from './watchlists/watchlist-store'
import { NotesStore } from './notes/notes-store'
import { LabelsStore } from './labels/labels-store'
import { CaseStore } from './cases/case-store'
import { EvidenceBundles } from './evidence/evidence-bundles'
import { PdfExport, type PdfHost } from './reports/pdf-export'
import { FileExit } from './reports/file-exit'
import { SearchService } from './search/search-service'
import { PresenceChecker } from './data/network-presence'
import { ApprovalsService } from './approvals/approvals-service'
import { ScanStore } from './approvals/scan-store'
import { approvalsDigester } from './approvals/saved-digest'
import { LearntLimitsStore } from './service/learnt-limits-store'
import { ConnectionPublisher } from './service/connection-publisher'
import { EntityService } from './entities/entity-service'
import { FinalAnswers } from './entities/final-answers'

export interface CoreServicesOptions {
  dataDir: string
  log: Logger
  redactor: Redactor
  clock: Clock
  emit: <E extends BridgeEventName>(event: E, payload: BridgeEvents[E]) => void
  sandboxLauncher?: SandboxLauncher
  keychain?: () => Promise<KeychainBackend>
  keychainService?: string
  fetch?: typeof fetch
  tuning: RuntimeTuning
  height?: Partial<
    Pick<HeightWatcherOptions, 'budgetFraction' | 'budgetHours' | 'minIntervalMs' | 'maxIntervalMs' | 'tickMs'>
  >
  snapshots?: { maxBytes?: number; maxPagesPerAddress?: number }
  /** A desktop notification when a watch check finds changes (Electron); the web host's page uses the browser's. */
  notify?: DesktopNotifier
  /** Prints a report to PDF with no network (Electron); the web host has none. */
  pdf?: PdfHost
}

/**
 * The state behind the bridge: stores, per-profile runtimes, the active profile's height
 * watcher, connectivity and notices. Handlers (bridge-handlers.ts) only translate calls.
 */
export class CoreServices {
  readonly settings: SettingsStore
  readonly keys: KeyStore
  readonly sandbox: SandboxManager
  readonly snapshots: SnapshotStore
  readonly watchlists: WatchlistStore
  readonly quota: QuotaFile
  readonly notes: NotesStore
  readonly labels: LabelsStore
  readonly cases: CaseStore
  readonly evidence: EvidenceBundles
  readonly reports: PdfExport
  /** Every file the renderer offers is checked here for the key first. */
  readonly fileExit: FileExit
  readonly search: SearchService
  readonly presence: PresenceChecker
  readonly watch: WatchService
  readonly approvals: ApprovalsService
  readonly entities: EntityService
  readonly #o: CoreServicesOptions
  /** The runtimes of the profiles in use; `activeFor` is the door of every read. */
  readonly runtimes: ProfileRuntimes
  readonly #learnt: LearntLimitsStore
  readonly #notices: Notice[] = []
  /** The active profile's height watcher, and the heads seen elsewhere told to it. */
  readonly height: ActiveHeight
  /** What real calls to the active profile's endpoints did, and Work offline: the one `connectivity` event. */
  readonly connection: ConnectionPublisher

  constructor(options: CoreServicesOptions) {
    this.#o = options
    const { dataDir, log } = options
    // Writes nobody waits for (quota count, watch state, cache, learned settings) report here.
    const disk = new DiskReports((message) => this.notify('warning', message))
    this.settings = new SettingsStore(dataDir, disk)
    this.height = new ActiveHeight({
      activeId: () => this.settings.activeProfileId,
      profile: (id) => this.settings.find(id),
      runtimeOf: (id) => this.runtimes.get(id),
      workOffline: () => this.settings.workOffline,
      clock: options.clock,
      onHeight: (view) => options.emit('height', view),
      log,
      tuning: options.height,
    })
    this.connection = new ConnectionPublisher({
      activeId: () => this.settings.activeProfileId,
      stateOf: (id) => this.runtimes.existing(id)?.client.connection,
      workOffline: { get: () => this.settings.workOffline, set: (on) => this.settings.setWorkOffline(on) },
      sandboxStopped: (id) => {
        const status = id === SANDBOX_PROFILE_ID && this.sandbox.held ? this.sandbox.status : null
        return status?.stoppedAt ? { at: status.stoppedAt, unexpected: status.unexpected === true } : null
      },
      emit: (view) => options.emit('connectivity', view),
      onChange: () => this.height.refresh(),
    })
    this.keys = new KeyStore({
      backend: options.keychain,
      service: options.keychainService,
      redactor: options.redactor,
      log,
    })
    this.snapshots = new SnapshotStore({
      root: join(dataDir, 'snapshots'),
      log,
      redact: options.redactor,
      disk,
      // Each page is digested for the Approvals tab as it is written, while its items are in memory.
      digester: approvalsDigester,
      ...options.snapshots,
    })
    // Where builds before the digests kept beside the pages saved them: a cache, made again.
    void rm(join(dataDir, 'approval-digests'), { recursive: true, force: true }).catch(() => undefined)
    this.quota = new QuotaFile(join(dataDir, 'quota.json'), { disk })
    this.watchlists = new WatchlistStore({
      dataDir,
      now: () => options.clock.now(),
      onChange: (lists) => {
        this.search.markDirty('watchlists')
        options.emit('watchlists.changed', lists)
      },
    })
    this.notes = new NotesStore({
      dataDir,
      now: () => options.clock.now(),
      onChange: (notes) => {
        this.search.markDirty('notes')
        options.emit('notes.changed', notes)
      },
    })
    this.labels = new LabelsStore({
      dataDir,
      now: () => options.clock.now(),
      onChange: (labels) => {
        this.search.markDirty('labels')
        options.emit('labels.changed', labels)
      },
    })
    this.cases = new CaseStore({
      dataDir,
      now: () => options.clock.now(),
      onChange: (cases) => options.emit('cases.changed', cases),
      profileName: () => this.profileViews().find((p) => p.active)?.name ?? null,
    })
    this.reports = new PdfExport({
      host: options.pdf,
      redactor: options.redactor,
      log: options.log,
      emit: (outcome) => options.emit('report.pdf', outcome),
    })
    this.evidence = new EvidenceBundles({ dataDir, redactor: options.redactor, log: options.log })
    this.fileExit = new FileExit({ redactor: options.redactor, log: options.log, clock: options.clock })
    this.search = new SearchService({
      snapshots: this.snapshots,
      profileId: () => this.settings.activeProfileId,
      watchlists: () => this.watchlists.list(),
      notes: () => this.notes.list(),
      labels: () => this.labels.list(),
      indexDir: join(dataDir, 'search-index'),
      log,
    })
    this.presence = new PresenceChecker({ snapshots: this.snapshots, clock: options.clock })
    const scans = new ScanStore(dataDir)
    this.#learnt = new LearntLimitsStore(dataDir, { now: () => options.clock.now(), log })
    this.approvals = new ApprovalsService({
      snapshots: this.snapshots,
      scans,
      watchlists: () => this.watchlists.list(),
      billing: (id) => this.settings.find(id)?.billing ?? 'request',
      onProgress: (progress) => options.emit('approvals.progress', progress),
      headOf: (id, network) => this.height.headOf(id, network),
      clock: options.clock,
    })
    this.entities = new EntityService({
      snapshots: this.snapshots,
      headOf: (id, network) => this.height.headOf(id, network),
      traces: (id) => this.#learnt.forProfile(id, () => this.settings.find(id)?.rpcUrl ?? '').traces,
      clock: options.clock,
      finals: new FinalAnswers(join(dataDir, 'entities'), log),
    })
    this.sandbox = new SandboxManager({
      launcher: options.sandboxLauncher,
      log,
      now: () => options.clock.now(),
      // A reset's chains start again at the seed: nothing cached from the old ones may remain.
      clearCache: async () => {
        await this.snapshots.removeProfile(SANDBOX_PROFILE_ID)
        this.forgetRuntime(SANDBOX_PROFILE_ID)
      },
      onStatus: (status) => {
        options.emit('sandbox', status)
        // A stopped sandbox answers nothing: the header says so, not the last success.
        this.connection.publish()
      },
      onReady: (info) => {
        this.keys.setManaged(this.settings.keyRef(SANDBOX_PROFILE_ID), info.api_key)
        this.settings.setSandboxRuntime(
          { baseUrl: info.base_url, rpcUrl: info.rpc_url },
          info.networks,
          info.billing,
          info.coins,
        )
        this.#profilesChanged()
      },
      onGone: () => {
        this.keys.forgetManaged(this.settings.keyRef(SANDBOX_PROFILE_ID))
        this.settings.setSandboxRuntime({ baseUrl: '', rpcUrl: '' }, null)
        this.#profilesChanged()
      },
    })
    this.runtimes = new ProfileRuntimes(
      {
        settings: this.settings,
        keys: this.keys,
        sandbox: this.sandbox,
        snapshots: this.snapshots,
        ledger: this.quota,
        clock: options.clock,
        fetch: options.fetch,
        redactor: options.redactor,
        log,
        tuning: options.tuning,
        onLimiter: (state) => options.emit('limiter', state),
        onConnection: (id) => {
          if (id === this.settings.activeProfileId) this.connection.publish()
        },
        workOffline: () => this.settings.workOffline,
        onHead: (id, network, head, at) => this.height.observe(id, network, head, at),
        headOf: (id, network) => this.height.headOf(id, network),
        onPoll: (id, poll) => this.height.polled(id, poll),
        learnt: this.#learnt,
      },
      () => this.height.sync(),
    )
    this.watch = new WatchService({
      dataDir,
      disk,
      watchlists: this.watchlists,
      active: async () => {
        const runtime = this.runtimes.active()
        const profile = await runtime.ready()
        this.height.sync()
        return { runtime, networks: profile.networks.map((n) => n.name) }
      },
      activeId: () => this.settings.activeProfileId,
      quotaPerDay: (id) => this.settings.find(id)?.limits.quotaPerDay ?? 0,
      billing: (id) => this.settings.find(id)?.billing ?? 'request',
      clock: options.clock,
      onChanged: (statuses) => options.emit('watch.changed', statuses),
      onProgress: (progress) => options.emit('watch.progress', progress),
      onHead: (id, network, head) => this.observeHead(id, network, head),
      headOf: (id, network) => this.height.headOf(id, network),
      logCap: (id, network) => this.runtimes.get(id).client.logs.learntCap(network),
      notify: options.notify,
      log,
    })
    for (const notice of [
      this.settings.notice,
      this.watchlists.notice,
      this.notes.notice,
      this.labels.notice,
      this.cases.notice,
      this.watch.notice,
      scans.notice,
      this.#learnt.notice,
    ])
      if (notice) this.notify('warning', notice)
    this.height.sync()
    // The saved search index is loaded (or built) in the background from the start, a slice
    // at a time, so the first search answers at once rather than after reading every snapshot.
    setImmediate(() => void this.search.sync())
  }

  /** Text with every registered key replaced (for messages that quote what a service sent). */
  redact(text: string): string {
    return this.#o.redactor.redact(text)
  }

  get notices(): Notice[] {
    return [...this.#notices]
  }

  notify(level: Notice['level'], message: string): void {
    const notice: Notice = { id: randomUUID(), level, message, at: new Date(this.#o.clock.now()).toISOString() }
    this.#notices.push(notice)
    if (this.#notices.length > 20) this.#notices.shift()
    this.#o.log[level === 'error' ? 'error' : level === 'warning' ? 'warn' : 'info'](`notice: ${message}`)
    this.#o.emit('notice', notice)
  }

  profileViews(): ProfileView[] {
    const active = this.settings.activeProfileId
    return this.settings.list().map((p) => ({ ...p, active: p.id === active }))
  }

  limiterState(): LimiterState {
    return this.runtimes.get(this.settings.activeProfileId ?? SANDBOX_PROFILE_ID).limiters.state()
  }

  heightViews(): BridgeEvents['height'][] {
    return this.height.views()
  }

  observeHead(profileId: string, network: string, head: number): void {
    this.height.observe(profileId, network, head)
  }

  setVisible(visible: boolean): void {
    this.height.setVisible(visible)
    this.watch.setVisible(visible)
    // A visible window on the sandbox profile wants its heights: start it if needed.
    if (visible && this.settings.activeProfileId === SANDBOX_PROFILE_ID) void this.sandbox.ensure().catch(() => {})
  }

  /** After any change of profiles: tell the renderer, and follow the active one's networks. */
  profilesChanged(): void {
    this.#profilesChanged()
  }

  /** Ends a profile's runtime and drops the provider limits it learnt (kept across runs). */
  forgetRuntime(profileId: string): void {
    this.runtimes.end(profileId)
    this.#learnt.forget(profileId)
    // Its height watcher asked through the runtime just disposed (and holds the old chain's
    // heads, which a sandbox reset takes back): a new one follows the new runtime.
    this.height.forget(profileId)
    void this.entities
      .forget(profileId)
      .catch((error: unknown) => this.#o.log.warn(`entity answers not removed: ${String(error)}`))
    this.height.sync()
  }

  cancelScope(scope: string): number {
    let n = 0
    for (const runtime of this.runtimes.all()) n += runtime.data.cancelScope(scope)
    return n
  }

  async dispose(): Promise<void> {
    this.watch.dispose()
    this.height.dispose()
    this.runtimes.dispose()
    // The saved files do not wait on the sandbox's stop, which may take its stop timeout (a
    // start under way is cancelled and its process waited for): the host's deadline may end the
    // dispose first.
    await Promise.all([this.sandbox.dispose(), this.snapshots.flush().then(() => this.search.close()), this.settled()])
  }

  /** Every save nobody waits for (what the app learnt about the services) has settled. */
  async settled(): Promise<void> {
    await Promise.all([this.settings.settled(), this.#learnt.settled(), this.quota.settled(), this.watch.settled()])
  }

  #profilesChanged(): void {
    this.height.sync()
    this.connection.publish()
    this.#o.emit('profiles.changed', this.profileViews())
  }
}
