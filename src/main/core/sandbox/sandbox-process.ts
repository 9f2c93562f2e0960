import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { z } from 'zod'
import { AppError } from '../util/app-error'
import type { Logger } from '../util/logger'
import {
  liveStateArgs,
  sandboxProgressSchema,
  type LaunchOptions,
  type RunningSandbox,
  type SandboxInfo,
  type SandboxLauncher,
} from './sandbox-launcher'
import { withDefaults } from '../util/options'

export interface ChildSandboxLauncherOptions {
  /** Default: this Node (`process.execPath`). */
  command?: string
  /** E.g. `[<out/main>/sandbox.js, '--port', '0']`, or `['--import', 'tsx', 'sandbox/cli.ts', ...]`. */
  args: string[]
  cwd?: string
  env?: NodeJS.ProcessEnv
  /** First-time seeding can take minutes. Default 10 min. */
  readyTimeoutMs?: number
  /** After SIGTERM, SIGKILL follows after this. Default 5 s. */
  stopTimeoutMs?: number
  /** Where the sandbox keeps its chains across its restarts (`--live-state`). Default none: each start is a seed. */
  liveStateDir?: string
  log?: Logger
}

const DEFAULT_TIMEOUTS = { readyTimeoutMs: 600_000, stopTimeoutMs: 5000 }

/** The ready line (sandbox/README.md), parsed where it enters. */
export const sandboxInfoSchema = z.looseObject({
  base_url: z.string().regex(/^https?:\/\/[^?#]+$/),
  rpc_url: z.string().regex(/^https?:\/\/[^?#]+$/),
  networks: z
    .array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/))
    .min(1)
    .max(8),
  api_key: z.string().min(8).max(256),
  demo_addresses: z.record(z.string(), z.record(z.string(), z.string())),
})

const PROGRESS = /^sandbox-progress (\{.*\})\s*$/
const children = new Set<ChildProcess>()
let exitHookInstalled = false

/**
 * Runs the sandbox as a Node child process (the web host, tests and benchmarks; the desktop
 * app uses Electron's utilityProcess instead). Reads the one JSON ready line from stdout and
 * progress lines from stderr; other stderr lines go to the log.
 */
export function childProcessSandboxLauncher(options: ChildSandboxLauncherOptions): SandboxLauncher {
  return {
    launch: (launchOptions) => launch(options, launchOptions),
  }
}

function launch(
  options: ChildSandboxLauncherOptions,
  { onProgress, signal, fresh }: LaunchOptions,
): Promise<RunningSandbox> {
  const { readyTimeoutMs, stopTimeoutMs } = withDefaults(DEFAULT_TIMEOUTS, options)
  if (!exitHookInstalled) {
    exitHookInstalled = true
    // A sandbox must not outlive the app, even when the app exits without disposing.
    process.once('exit', () => {
      for (const child of children) child.kill('SIGKILL')
    })
  }
  const args = [...options.args, ...liveStateArgs(options.liveStateDir, fresh)]
  const child = spawn(options.command ?? process.execPath, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    // stdin stays open: its end tells the sandbox the app is gone (sandbox/parent-watch.ts).
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  children.add(child)
  const tail: string[] = []
  const exited = new Promise<{ code: number | null }>((resolve) => {
    child.once('exit', (code) => {
      children.delete(child)
      resolve({ code })
    })
    child.once('error', () => {
      children.delete(child)
      resolve({ code: null })
    })
  })
  createInterface({ input: child.stderr! }).on('line', (line) => {
    const m = PROGRESS.exec(line)
    if (m) {
      try {
        const p = sandboxProgressSchema.safeParse(JSON.parse(m[1]!))
        if (p.success) onProgress?.(p.data)
        return
      } catch {
        // not a progress line after all
      }
    }
    tail.push(line)
    if (tail.length > 20) tail.shift()
    options.log?.info(line.startsWith('sandbox') ? line : `sandbox: ${line}`)
  })
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs)
    await exited
    clearTimeout(timer)
  }

  return new Promise<RunningSandbox>((resolve, reject) => {
    let settled = false
    // A start that failed or was cancelled answers once its child is gone (stopped and waited
    // for), so whoever waits on it, such as the app on its way out, leaves no sandbox behind.
    const fail = (error: AppError): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void stop()
        .catch(() => {})
        .then(() => reject(error))
    }
    const timer = setTimeout(
      () =>
        fail(
          new AppError(
            'offline',
            `The built-in sandbox did not get ready within ${Math.round(readyTimeoutMs / 1000)} s.`,
          ),
        ),
      readyTimeoutMs,
    )
    signal?.addEventListener('abort', () => fail(new AppError('cancelled', 'Starting the sandbox was cancelled.')), {
      once: true,
    })
    child.once('error', (error) =>
      fail(new AppError('offline', `The built-in sandbox could not be started: ${error.message}`)),
    )
    void exited.then(({ code }) => {
      const last = tail.slice(-3).join(' | ').slice(0, 400)
      fail(
        new AppError(
          'offline',
          `The built-in sandbox stopped before it was ready (exit ${code ?? 'signal'})${last ? `: ${last}` : '.'}`,
        ),
      )
    })
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      if (settled) return
      let info: SandboxInfo
      try {
        info = sandboxInfoSchema.parse(JSON.parse(line))
      } catch {
        options.log?.warn(`sandbox printed an unexpected line on stdout (${line.length} characters); ignored`)
        return
      }
      settled = true
      clearTimeout(timer)
      resolve({ info, stop, exited, pid: child.pid })
    })
  })
}
