import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { SandboxInfo } from './app'
import { packageRoot } from './paths'

/**
 * Test harness for the sandbox's own tests (and e2e fixtures): spawns the CLI through tsx and
 * parses the ready line. src/main must not import this (layer rule); it spawns the CLI itself.
 */
/** For beforeAll hooks: the first start on a machine seeds both chains (about 15 s alone, more under load). */
export const SEED_TIMEOUT_MS = 600_000

export interface StartedSandbox {
  info: SandboxInfo
  /** Its process id (to kill it without its exit handlers, as a crash does). */
  pid: number
  /** The last 20,000 characters the sandbox wrote to stderr. */
  stderr(): string
  /** Everything written to stdout (the ready line, and nothing else). */
  stdout(): string
  /** SIGTERM, then the exit code (SIGKILL after 10 s). */
  stop(): Promise<number | null>
  /** Resolves with the exit code when the process ends for any reason. */
  exited: Promise<number | null>
}

export interface StartOptions {
  /** CLI arguments, e.g. ['--admin', '--block-time', '0']. */
  args?: string[]
  /** Default 10 minutes: a first run seeds both chains. */
  timeoutMs?: number
  /** A built sandbox (out/main/sandbox.js) to run with plain Node instead of sandbox/cli.ts under tsx. */
  built?: string
}

export async function startSandbox(options: StartOptions = {}): Promise<StartedSandbox> {
  const root = packageRoot()
  const entry = options.built ? [options.built] : ['--import', 'tsx', join(root, 'sandbox', 'cli.ts')]
  const child = spawn(process.execPath, [...entry, ...(options.args ?? [])], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000)
  })
  let stdout = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const lines = createInterface({ input: child.stdout })
  const timeoutMs = options.timeoutMs ?? 600_000
  const info = await new Promise<SandboxInfo>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`sandbox not ready within ${timeoutMs} ms:\n${stderr}`))
    }, timeoutMs)
    lines.once('line', (line) => {
      clearTimeout(timer)
      try {
        resolve(JSON.parse(line) as SandboxInfo)
      } catch {
        child.kill('SIGKILL')
        reject(new Error(`sandbox printed a ready line that is not JSON: ${line}`))
      }
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`sandbox exited with code ${code} before it was ready:\n${stderr}`))
    })
  })
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    const code = await exited
    clearTimeout(timer)
    return code
  }
  return { info, pid: child.pid!, stderr: () => stderr, stdout: () => stdout, stop, exited }
}
