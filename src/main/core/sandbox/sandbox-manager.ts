import type { BridgeEvents } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'
import type { Logger } from '../util/logger'
import type { RunningSandbox, SandboxInfo, SandboxLauncher, SandboxProgress } from './sandbox-launcher'
import { isAddressText } from '@shared/domain/address'
import { errorMessage } from '@shared/guards'

export type SandboxStatus = BridgeEvents['sandbox']

export interface SandboxManagerOptions {
  launcher?: SandboxLauncher
  /** The sandbox is ready: hand its key and addresses to the rest of the core. */
  onReady: (info: SandboxInfo) => void
  /** It stopped (asked to, or crashed): forget its key and addresses. */
  onGone: () => void
  onStatus: (status: SandboxStatus) => void
  /** A reset: forget the sandbox profile's cached data, as its chains go back to the seed. Default nothing. */
  clearCache?: () => Promise<void>
  /** Milliseconds since the epoch (the core's clock). Default Date.now. */
  now?: () => number
  log?: Logger
}

/** Why ensure() refuses: the sandbox was stopped, and only the user starts it again. */
type Hold = 'stopped' | 'unexpected' | null

/**
 * Starts the built-in sandbox on demand (first use of the sandbox profile), once, however
 * many callers ask at the same time; stops it on dispose. Its key lives only in memory (the key
 * store's managed entry). A sandbox that stops — the user's Stop, or a crash — stays stopped
 * until the user starts it (Settings): no silent restart, which once brought back a chain reset
 * to its seed under a cache that held the old one (issue 38, docs/decisions/sandbox-lifecycle.md).
 * A reset is the one way back to the seed, and it clears the profile's cache with it.
 */
export class SandboxManager {
  readonly #o: SandboxManagerOptions
  #starting: Promise<SandboxInfo> | null = null
  #running: RunningSandbox | null = null
  #status: SandboxStatus = { state: 'stopped', message: null, progress: null, demoAddresses: null }
  #abort: AbortController | null = null
  #disposed = false
  #hold: Hold = null
  /** The next start begins at the seed (a reset whose start has not succeeded yet). */
  #fresh = false

  constructor(options: SandboxManagerOptions) {
    this.#o = options
  }

  get status(): SandboxStatus {
    return { ...this.#status }
  }

  /** Stopped by the user or unexpectedly: nothing starts it but start() or reset(). */
  get held(): boolean {
    return this.#hold !== null
  }

  get available(): boolean {
    return this.#o.launcher !== undefined
  }

  /** The running sandbox, starting it if it never ran; refused while it is stopped. */
  ensure(): Promise<SandboxInfo> {
    if (this.#running) return Promise.resolve(this.#running.info)
    if (this.#starting) return this.#starting
    if (this.#hold && !this.#disposed)
      return Promise.reject(new AppError('offline', this.#status.message ?? 'The built-in sandbox is stopped.'))
    return this.#launch()
  }

  /** Says the status again, so a view that assumed a start (an activation while held) shows the truth. */
  resend(): void {
    this.#set(this.#status)
  }

  /** The user's Start: lifts a stop and starts the sandbox (its chains resume where they were). */
  async start(): Promise<SandboxInfo> {
    this.#hold = null
    return this.ensure()
  }

  /** The user's Stop: the sandbox saves its chains and exits, and stays stopped until started. */
  async stop(): Promise<void> {
    this.#hold = 'stopped'
    await this.#halt()
    this.#set({
      state: 'stopped',
      message: 'The built-in sandbox is stopped; its chains are saved. Start it again in Settings.',
      progress: null,
      demoAddresses: null,
      stoppedAt: new Date(this.#now()).toISOString(),
      unexpected: false,
    })
  }

  /**
   * The user's Reset: the chains go back to the seed and the profile's cached data is cleared.
   * Answers once both are done, with the fresh start under way (ensure() waits for it).
   */
  async reset(): Promise<void> {
    this.#hold = 'stopped'
    await this.#halt()
    // Until a fresh start succeeds, every start is fresh: a reset is never half done.
    this.#fresh = true
    await this.#o.clearCache?.()
    void this.start().catch(() => {})
  }

  async dispose(): Promise<void> {
    this.#disposed = true
    await this.#halt()
  }

  #now(): number {
    return (this.#o.now ?? Date.now)()
  }

  #launch(): Promise<SandboxInfo> {
    const launcher = this.#o.launcher
    if (!launcher || this.#disposed) {
      return Promise.reject(
        new AppError(
          'offline',
          'The built-in sandbox is not available in this build; create a profile for the service instead.',
        ),
      )
    }
    this.#abort = new AbortController()
    this.#set({
      state: 'starting',
      message: 'Starting the built-in sandbox…',
      progress: null,
      stages: [],
      demoAddresses: null,
    })
    // Both networks report at once; keep each one's latest stage so neither hides the other.
    const stages = new Map<string, SandboxProgress>()
    const onProgress = (p: SandboxProgress): void => {
      stages.set(p.network ?? '', p)
      this.#set({
        state: 'starting',
        message: describe(p),
        progress: p,
        stages: [...stages.values()],
        demoAddresses: null,
      })
    }
    const fresh = this.#fresh
    this.#starting = launcher.launch({ onProgress, signal: this.#abort.signal, fresh }).then(
      async (running) => {
        this.#starting = null
        if (this.#disposed) {
          await running.stop()
          throw new AppError('cancelled', 'The app is shutting down.')
        }
        if (fresh) this.#fresh = false
        this.#running = running
        this.#o.onReady(running.info)
        this.#set({
          state: 'ready',
          message: null,
          progress: null,
          demoAddresses: sampleWallets(running.info.demo_addresses),
        })
        void running.exited.then(({ code }) => this.#exitedUnasked(running, code))
        return running.info
      },
      (error: unknown) => {
        this.#starting = null
        const message = errorMessage(error)
        this.#o.log?.error(`the sandbox could not start: ${message}`)
        this.#set({ state: 'failed', message, progress: null, demoAddresses: null })
        throw error instanceof AppError
          ? error
          : new AppError('offline', `The built-in sandbox could not start: ${message}`)
      },
    )
    return this.#starting
  }

  /** It died without being asked: said, with its time, and not started again until the user asks. */
  #exitedUnasked(running: RunningSandbox, code: number | null): void {
    if (this.#running !== running) return
    this.#running = null
    this.#o.onGone()
    if (this.#disposed) return
    this.#hold = 'unexpected'
    this.#o.log?.warn(`the sandbox exited unexpectedly (code ${code ?? 'signal'})`)
    this.#set({
      state: 'stopped',
      message: `The built-in sandbox stopped unexpectedly (${code === null ? 'ended by a signal' : `exit code ${code}`}). Start it again in Settings; its chains resume from their last save.`,
      progress: null,
      demoAddresses: null,
      stoppedAt: new Date(this.#now()).toISOString(),
      unexpected: true,
    })
  }

  /** Ends a start under way and the running sandbox, and waits for both. */
  async #halt(): Promise<void> {
    this.#abort?.abort()
    // A start under way ends first (cancelled, its child stopped and waited for; or ready just
    // before the cancel, and then stopped below), so no sandbox outlives the stop.
    await this.#starting?.catch(() => {})
    const running = this.#running
    this.#running = null
    if (running) {
      this.#o.onGone()
      await running.stop()
      this.#set({ state: 'stopped', message: null, progress: null, demoAddresses: null })
    }
  }

  #set(status: SandboxStatus): void {
    this.#status = status
    this.#o.onStatus({ ...status })
  }
}

/** Only address-shaped values, so nothing but public addresses can ride along. */
function sampleWallets(demo: Record<string, Record<string, string>>): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {}
  for (const [network, roles] of Object.entries(demo)) {
    out[network] = Object.fromEntries(Object.entries(roles).filter(([, a]) => isAddressText(a)))
  }
  return out
}

function describe(p: SandboxProgress): string {
  const where = p.network ? ` ${p.network}` : ''
  const count =
    typeof p.done === 'number' && typeof p.total === 'number' && p.total > 0 ? `: ${p.done} of ${p.total}` : ''
  return `Preparing the sandbox (${p.stage}${where}${count})…`
}
