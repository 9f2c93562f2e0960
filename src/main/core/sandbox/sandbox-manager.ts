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
  log?: Logger
}

/**
 * Starts the built-in sandbox on demand (first use of the sandbox profile), once, however
 * many callers ask at the same time; stops it on dispose. If it dies, the next use starts a
 * new one. Its key lives only in memory (the key store's managed entry).
 */
export class SandboxManager {
  readonly #o: SandboxManagerOptions
  #starting: Promise<SandboxInfo> | null = null
  #running: RunningSandbox | null = null
  #status: SandboxStatus = { state: 'stopped', message: null, progress: null, demoAddresses: null }
  #abort: AbortController | null = null
  #disposed = false

  constructor(options: SandboxManagerOptions) {
    this.#o = options
  }

  get status(): SandboxStatus {
    return { ...this.#status }
  }

  get available(): boolean {
    return this.#o.launcher !== undefined
  }

  ensure(): Promise<SandboxInfo> {
    if (this.#running) return Promise.resolve(this.#running.info)
    if (this.#starting) return this.#starting
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
    this.#starting = launcher.launch({ onProgress, signal: this.#abort.signal }).then(
      async (running) => {
        this.#starting = null
        if (this.#disposed) {
          await running.stop()
          throw new AppError('cancelled', 'The app is shutting down.')
        }
        this.#running = running
        this.#o.onReady(running.info)
        this.#set({
          state: 'ready',
          message: null,
          progress: null,
          demoAddresses: sampleWallets(running.info.demo_addresses),
        })
        void running.exited.then(({ code }) => {
          if (this.#running !== running) return
          this.#running = null
          this.#o.onGone()
          if (!this.#disposed) {
            this.#o.log?.warn(`the sandbox exited unexpectedly (code ${code ?? 'signal'})`)
            this.#set({
              state: 'failed',
              message: `The built-in sandbox stopped unexpectedly (exit ${code ?? 'by a signal'}); it restarts when needed.`,
              progress: null,
              demoAddresses: null,
            })
          }
        })
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

  async stop(): Promise<void> {
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

  async dispose(): Promise<void> {
    this.#disposed = true
    await this.stop()
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
