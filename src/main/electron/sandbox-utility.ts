import { utilityProcess, type ForkOptions, type UtilityProcess } from 'electron'
import { existsSync } from 'node:fs'
import { cp, rename, rm } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { createInterface } from 'node:readline'
import { errorMessage } from '@shared/guards'
import { AppError } from '../core/util/app-error'
import type { Logger, Redactor } from '../core/util/logger'
import {
  liveStateArgs,
  sandboxProgressSchema,
  type LaunchOptions,
  type RunningSandbox,
  type SandboxInfo,
  type SandboxLauncher,
  type SandboxProgress,
} from '../core/sandbox/sandbox-launcher'
import { sandboxInfoSchema } from '../core/sandbox/sandbox-process'
import { withDefaults } from '../core/util/options'

/** The parts of a utility process the launcher uses (a fake stands in for it in tests). */
export type SandboxChild = Pick<UtilityProcess, 'stdout' | 'stderr' | 'kill' | 'once' | 'pid'>
export type ForkSandbox = (modulePath: string, args: string[], options: ForkOptions) => SandboxChild

export interface UtilitySandboxOptions {
  /** The built sandbox, `out/main/sandbox.js`. */
  modulePath: string
  /** Where the sandbox keeps its chain state (`--state-dir`). */
  stateDir: string
  /**
   * Seeded chain state shipped with the app (`resources/sandbox-state`), copied into `stateDir`
   * on first use so a newcomer's first start takes seconds, not a full seeding. Default none.
   */
  seedStateDir?: string
  log: Logger
  /** The sandbox's key is registered here the moment it is known, so no log line shows it. */
  redactor: Redactor
  /** Where the sandbox keeps its chains across its restarts (`--live-state`). Default none: each start is a seed. */
  liveStateDir?: string
  /** Extra CLI arguments. Default none (`--port 0 --state-dir …` are always passed). */
  args?: string[]
  /** Environment of the sandbox. Default `process.env`. */
  env?: NodeJS.ProcessEnv
  /** Give up when the sandbox says nothing (no ready line, no progress) for this long. Default 120 s. */
  quietTimeoutMs?: number
  /** After asking it to stop, wait this long before assuming it is gone. Default 10 s. */
  stopTimeoutMs?: number
  /** Default `utilityProcess.fork` (the RunAsNode fuse is off, so no `child_process.fork`). */
  fork?: ForkSandbox
}

const PROGRESS_PREFIX = 'sandbox-progress '

/**
 * Starts the built-in sandbox as an Electron utility process: a child of the app that Electron
 * ends with it, and that `stopAll` stops on quit. It reads the one JSON ready line from stdout and
 * `sandbox-progress {…}` lines from stderr (sandbox/README.md).
 */
export function createUtilitySandboxLauncher(
  options: UtilitySandboxOptions,
): SandboxLauncher & { stopAll(): Promise<void> } {
  const fork: ForkSandbox = options.fork ?? ((path, args, forkOptions) => utilityProcess.fork(path, args, forkOptions))
  const { quietTimeoutMs: quietMs, stopTimeoutMs: stopMs } = withDefaults(
    { quietTimeoutMs: 120_000, stopTimeoutMs: 10_000 },
    options,
  )
  /** Every forked sandbox not yet exited, ready or still starting: all stop with the app. */
  const live = new Set<() => Promise<void>>()

  async function launch({ onProgress, signal, fresh }: LaunchOptions = {}): Promise<RunningSandbox> {
    const cancelled = (): AppError => new AppError('cancelled', 'Starting the sandbox was cancelled.')
    if (signal?.aborted) throw cancelled()
    // Only an installed app has a seed to copy; otherwise the fork happens at once.
    if (options.seedStateDir) await copySeedState(options, options.seedStateDir)
    // Cancelled during the copy (the app quits on its first run): nothing is forked.
    if (signal?.aborted) throw cancelled()
    const args = [
      '--port',
      '0',
      '--state-dir',
      options.stateDir,
      ...liveStateArgs(options.liveStateDir, fresh),
      ...(options.args ?? []),
    ]
    // No stdin pipe here: the sandbox sees the app's end as a new parent pid (sandbox/parent-watch.ts).
    const child = fork(options.modulePath, args, {
      stdio: 'pipe',
      env: options.env ?? process.env,
      serviceName: 'Chainscope sandbox',
    })
    const exited = new Promise<{ code: number | null }>((resolve) => child.once('exit', (code) => resolve({ code })))
    let lastError = ''

    const stop = async (): Promise<void> => {
      live.delete(stop)
      child.kill()
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, stopMs)))])
      clearTimeout(timer)
    }
    live.add(stop)
    void exited.then(() => live.delete(stop))

    const info = await new Promise<SandboxInfo>((resolve, reject) => {
      let settled = false
      let quiet: ReturnType<typeof setTimeout> | undefined
      const finish = (error: AppError | null, value?: SandboxInfo): void => {
        if (settled) return
        settled = true
        clearTimeout(quiet)
        signal?.removeEventListener('abort', onAbort)
        // A failed or cancelled start answers once its child is gone, as the core's launcher does.
        if (error)
          void stop()
            .catch(() => {})
            .then(() => reject(error))
        else resolve(value!)
      }
      const heard = (): void => {
        clearTimeout(quiet)
        quiet = setTimeout(
          () =>
            finish(
              new AppError(
                'offline',
                `The built-in sandbox said nothing for ${Math.round(quietMs / 1000)} s while starting.${hint(lastError)}`,
              ),
            ),
          quietMs,
        )
      }
      const onAbort = (): void => finish(cancelled())
      signal?.addEventListener('abort', onAbort, { once: true })
      heard()

      if (child.stdout) {
        createInterface({ input: child.stdout }).on('line', (line) => {
          if (settled) return
          heard()
          // The ready line is the one line that parses as the sandbox's info (sandbox/README.md, core's schema).
          let parsed: { success: true; data: SandboxInfo } | { success: false }
          try {
            parsed = sandboxInfoSchema.safeParse(JSON.parse(line))
          } catch {
            parsed = { success: false }
          }
          if (!parsed.success) {
            // Never the text itself: a stray line could hold the key.
            options.log.warn(`sandbox printed an unexpected line on stdout (${line.length} characters); ignored`)
            return
          }
          options.redactor.add(parsed.data.api_key)
          finish(null, parsed.data)
        })
      }
      if (child.stderr) {
        createInterface({ input: child.stderr }).on('line', (line) => {
          if (!settled) heard()
          if (line.startsWith(PROGRESS_PREFIX)) {
            const progress = parseProgress(line.slice(PROGRESS_PREFIX.length))
            if (progress) onProgress?.(progress)
            return
          }
          lastError = line.slice(0, 300)
          options.log.info(`sandbox: ${lastError}`)
        })
      }
      void exited.then(({ code }) =>
        finish(
          new AppError(
            'offline',
            `The built-in sandbox stopped before it was ready (exit ${code ?? 'signal'}).${hint(lastError)}`,
          ),
        ),
      )
    })

    return { info, exited, stop }
  }

  return {
    launch,
    stopAll: async () => {
      await Promise.all([...live].map((stop) => stop()))
    },
  }
}

/** Copies the shipped seeded state once; on any failure the sandbox simply seeds itself. */
async function copySeedState(options: UtilitySandboxOptions, seed: string): Promise<void> {
  if (existsSync(options.stateDir) || !existsSync(seed)) return
  // Copied beside and renamed into place: a crash mid-copy never leaves a half state behind.
  const tmp = `${options.stateDir}.copying`
  try {
    await rm(tmp, { recursive: true, force: true })
    // Cache entries only: no lock folders or half-written temporaries.
    await cp(seed, tmp, { recursive: true, filter: (path) => !/\.lock$|\.tmp-\d+$|^scratch$/.test(basename(path)) })
    await rename(tmp, options.stateDir)
  } catch (error) {
    options.log.warn(`could not copy the bundled sandbox state: ${errorMessage(error)}`)
  }
}

function parseProgress(text: string): SandboxProgress | null {
  try {
    const parsed = sandboxProgressSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

function hint(lastError: string): string {
  return lastError ? ` Its last message: ${lastError}` : ''
}

/** Where an installed app keeps anvil: `resources/anvil/anvil(.exe)` (build/electron-builder.config.ts). */
export function bundledAnvilPath(resourcesPath: string, platform: NodeJS.Platform): string {
  return join(resourcesPath, 'anvil', platform === 'win32' ? 'anvil.exe' : 'anvil')
}

/**
 * The sandbox's environment: in an installed app, `ANVIL_BIN` points at the bundled anvil
 * (the sandbox looks there first, sandbox/README.md); a user's own `ANVIL_BIN` wins.
 */
export function sandboxEnv(options: {
  isPackaged: boolean
  resourcesPath: string
  platform: NodeJS.Platform
  env: NodeJS.ProcessEnv
  exists?: (path: string) => boolean
}): NodeJS.ProcessEnv {
  if (!options.isPackaged || options.env.ANVIL_BIN) return options.env
  const bundled = bundledAnvilPath(options.resourcesPath, options.platform)
  return (options.exists ?? existsSync)(bundled) ? { ...options.env, ANVIL_BIN: bundled } : options.env
}
