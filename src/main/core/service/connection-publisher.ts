import type { ConnectionView } from '@shared/bridge/contract'
import type { ConnectionState } from './connection-state'

export interface ConnectionPublisherOptions {
  /** The active profile's id, or null. */
  activeId: () => string | null
  /** The connection state of a profile's runtime, when it has one. */
  stateOf: (profileId: string) => ConnectionState | undefined
  /** The saved "Work offline" switch. */
  workOffline: { get(): boolean; set(on: boolean): Promise<void> }
  /** When the profile is the built-in sandbox and it is held stopped: since when, and whether it died. */
  sandboxStopped?: (profileId: string) => { at: string; unexpected: boolean } | null
  /** Sends the view (the `connectivity` event). */
  emit: (view: ConnectionView) => void
  /** Before each publication (the height watcher reads the same state). */
  onChange?: () => void
}

/**
 * The active profile's connection records and the Work offline switch, as the one
 * `connectivity` event (docs/architecture.md "Connection truth"); an unchanged view is not sent again.
 */
export class ConnectionPublisher {
  readonly #o: ConnectionPublisherOptions
  #sent = ''

  constructor(options: ConnectionPublisherOptions) {
    this.#o = options
  }

  view(): ConnectionView {
    const id = this.#o.activeId()
    const state = id ? this.#o.stateOf(id) : undefined
    return {
      profileId: id,
      workOffline: this.#o.workOffline.get(),
      sandboxStopped: id ? (this.#o.sandboxStopped?.(id) ?? null) : null,
      endpoints: state?.endpoints() ?? [],
    }
  }

  /** Switches "Work offline" (saved); while on, the breaker refuses every attempt (circuit-breaker.ts). */
  async setWorkOffline(on: boolean): Promise<ConnectionView> {
    await this.#o.workOffline.set(on)
    this.publish()
    return this.view()
  }

  publish(): void {
    this.#o.onChange?.()
    const view = this.view()
    const text = JSON.stringify(view)
    if (text === this.#sent) return
    this.#sent = text
    this.#o.emit(view)
  }
}
