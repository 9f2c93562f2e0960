import type { HeightView } from '@shared/bridge/contract'
import type { Profile } from '@shared/domain/profile'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import type { ConnectionState } from '../service/connection-state'
import type { HeadSource } from './head-source'
import { HeightWatcher, type HeightWatcherOptions } from './height-watcher'

/** What the active profile's height watcher is wired to (core-services.ts gives it). */
export interface ActiveHeightOptions {
  activeId: () => string | null
  /** A profile as saved now. */
  profile: (profileId: string) => Profile | undefined
  /** The profile's head source and connection state (its runtime's). */
  runtimeOf: (profileId: string) => { headSource(): HeadSource; client: { connection: ConnectionState } }
  workOffline: () => boolean
  clock: Clock
  onHeight: (view: HeightView) => void
  log: Logger
  tuning?: Partial<
    Pick<HeightWatcherOptions, 'budgetFraction' | 'budgetHours' | 'minIntervalMs' | 'maxIntervalMs' | 'tickMs'>
  >
}

/**
 * The one height watcher: for the active profile and its current networks, made again when
 * either changes (`sync`). Heads seen elsewhere (a revalidation, a console call, the watch
 * check) are told to it only while their profile is the active one.
 */
export class ActiveHeight {
  readonly #o: ActiveHeightOptions
  #current: { profileId: string; networks: string; watcher: HeightWatcher } | null = null
  #visible = false

  constructor(options: ActiveHeightOptions) {
    this.#o = options
  }

  #of(profileId: string): HeightWatcher | null {
    return this.#current?.profileId === profileId ? this.#current.watcher : null
  }

  headOf(profileId: string, network: string): number | null {
    return this.#of(profileId)?.headOf(network) ?? null
  }

  observe(profileId: string, network: string, head: number, atMs = this.#o.clock.now()): void {
    this.#of(profileId)?.observe(network, head, atMs)
  }

  /** A revalidation's head and gas price: a poll the watcher need not make. */
  polled(profileId: string, poll: { network: string; head: number; gasPriceWei: string | null; atMs: number }): void {
    this.#of(profileId)?.polled(poll.network, poll.head, poll.gasPriceWei, poll.atMs)
  }

  views(): HeightView[] {
    return this.#current?.watcher.views() ?? []
  }

  refresh(): void {
    this.#current?.watcher.refresh()
  }

  setVisible(visible: boolean): void {
    this.#visible = visible
    this.#current?.watcher.setVisible(visible)
  }

  /** Drops the watcher of `profileId` (its runtime was disposed; a new one follows the new runtime). */
  forget(profileId: string): void {
    if (this.#current?.profileId !== profileId) return
    this.dispose()
  }

  dispose(): void {
    this.#current?.watcher.dispose()
    this.#current = null
  }

  /** One height watcher, for the active profile and its current networks. */
  sync(): void {
    const id = this.#o.activeId()
    const profile = id ? this.#o.profile(id) : undefined
    const networks = profile?.networks.map((n) => n.name) ?? []
    const signature = networks.join(',')
    if (this.#current && this.#current.profileId === id && this.#current.networks === signature) return
    this.dispose()
    if (!id || !profile) return
    const runtime = this.#o.runtimeOf(id)
    const watcher = new HeightWatcher({
      networks,
      source: runtime.headSource(),
      quotaPerDay: () => this.#o.profile(id)?.limits.quotaPerDay ?? 0,
      clock: this.#o.clock,
      onHeight: this.#o.onHeight,
      // The connection state stops the extrapolation at once when either endpoint of the
      // network is failing (both are the same service, as a rule).
      answering: (network) => {
        const ok = (state: string): boolean => state === 'answering' || state === 'unknown'
        const { connection } = runtime.client
        return (
          !this.#o.workOffline() &&
          ok(connection.record(network, 'rpc').state) &&
          ok(connection.record(network, 'data').state)
        )
      },
      log: this.#o.log,
      ...this.#o.tuning,
    })
    this.#current = { profileId: id, networks: signature, watcher }
    watcher.setVisible(this.#visible)
  }
}
