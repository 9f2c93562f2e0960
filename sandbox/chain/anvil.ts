import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RpcClient } from './rpc-client'

/** Options of one anvil chain. Every value that shapes the chain is explicit, for determinism. */
export interface AnvilOptions {
  bin: string
  chainId: number
  mnemonic: string
  /** Dev accounts derived from the mnemonic and funded at genesis. */
  accounts: number
  /** Genesis balance of each dev account, in whole coins. */
  balance: number
  /** Genesis timestamp (unix seconds): pinned so block hashes repeat run to run. */
  genesisTimestamp: number
  /** A state file written by a previous seed (anvil's dump on exit, or anvil_dumpState gunzipped). */
  loadState?: string
  /**
   * Where anvil writes its state when it stops, with the state of every block (so a chain loaded
   * from it can trace its old transactions: `anvil_dumpState` keeps only the newest state).
   */
  dumpOnExit?: string
  /** How long to wait for the RPC to answer, default 20 s. */
  readyTimeoutMs?: number
}

export interface AnvilChain {
  url: string
  rpc: RpcClient
  /**
   * The chain's own home folder: anvil writes the states it cannot keep in memory under
   * `<home>/.foundry/anvil/tmp` and leaves them there when it is stopped (seen: 1,385 folders,
   * 78 GB in a day of test runs, until the disk was full). Removed once anvil has exited,
   * by `stop` and by the watchdog (so also when this process was killed).
   */
  home: string
  /** Resolves with the exit code when anvil exits for any reason. */
  exited: Promise<number | null>
  stop(): Promise<void>
}

export class AnvilStartError extends Error {
  override name = 'AnvilStartError'
  readonly kind = 'anvil_start'
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(output ? `${message}\n${output}` : message)
  }
}

const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) {
    if (child.stdin) child.stdin.destroy()
    else child.kill('SIGKILL')
  }
})

// Anvil does not notice its parent's death, and a sandbox killed with SIGKILL runs no exit
// handler. So on POSIX anvil runs under a small sh watchdog that stops it as soon as its stdin
// (a pipe from this process) closes, whether we close it or the kernel does because we died.
// stdout of anvil goes to /dev/null (an unread pipe would block it); the watchdog's stdout
// carries anvil's pid.
// (An asynchronous list reads /dev/null unless redirected, hence the copy of stdin on fd 3.)
// Once anvil has exited, the watchdog removes the chain's home (its overflow states): anvil
// leaves them behind however it stops.
const WATCHDOG = [
  'exec 3<&0',
  '"$0" "$@" >/dev/null </dev/null 3<&- &',
  'pid=$!',
  'echo $pid',
  '( read _ <&3 ; kill $pid 2>/dev/null ) &',
  'watcher=$!',
  'wait $pid',
  'code=$?',
  'kill $watcher 2>/dev/null',
  'rm -rf "$HOME"',
  'exit $code',
].join('\n')

function spawnWatched(bin: string, args: string[], home: string): { child: ChildProcess; pid: Promise<number | null> } {
  // HOME places anvil's ~/.foundry (where it writes the states it cannot keep in memory).
  const env = { ...process.env, HOME: home, USERPROFILE: home }
  if (process.platform === 'win32') {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'], env })
    return { child, pid: Promise.resolve(child.pid ?? null) }
  }
  const child = spawn('/bin/sh', ['-c', WATCHDOG, bin, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env })
  const pid = new Promise<number | null>((resolve) => {
    let text = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      const line = /^(\d+)\n/.exec(text)
      if (line) resolve(Number(line[1]))
    })
    child.once('exit', () => resolve(null))
  })
  return { child, pid }
}

function tryKill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL')
  } catch {
    // already gone
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

export async function startAnvil(options: AnvilOptions): Promise<AnvilChain> {
  // The free port is found first and handed over; a rare race with another process taking it
  // shows as an early exit, so try a few times.
  let lastError: unknown
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(options, await freePort())
    } catch (error) {
      lastError = error
      if (!(error instanceof AnvilStartError) || !/address|in use|bind/i.test(error.output)) break
    }
  }
  throw lastError
}

async function startOnce(options: AnvilOptions, port: number): Promise<AnvilChain> {
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--chain-id',
    String(options.chainId),
    '--mnemonic',
    options.mnemonic,
    '--accounts',
    String(options.accounts),
    '--balance',
    String(options.balance),
    '--timestamp',
    String(options.genesisTimestamp),
    // The sandbox mines every block itself (pinned timestamps while seeding, jittered block
    // times when live) and fifo keeps the order of same-fee transactions fixed.
    '--no-mining',
    '--order',
    'fifo',
    '--disable-default-create2-deployer',
    '--quiet',
  ]
  if (options.loadState) args.push('--load-state', options.loadState)
  if (options.dumpOnExit) args.push('--dump-state', options.dumpOnExit, '--preserve-historical-states')
  const home = mkdtempSync(join(tmpdir(), 'chainscope-anvil-'))
  const { child, pid } = spawnWatched(options.bin, args, home)
  running.add(child)
  let output = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000)
  })
  // The watchdog removes the home itself; this covers Windows and a watchdog that was killed.
  const removeHome = (): void => rmSync(home, { recursive: true, force: true })
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      running.delete(child)
      removeHome()
      resolve(code)
    })
    child.once('error', (error) => {
      output += String(error)
      running.delete(child)
      removeHome()
      resolve(-1)
    })
  })
  const url = `http://127.0.0.1:${port}`
  const rpc = new RpcClient(url)
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    // Closing the watchdog's stdin makes it stop anvil; a direct kill is the fallback.
    child.stdin?.end()
    if (!child.stdin) child.kill('SIGTERM')
    // Writing the state of every block on exit takes a few seconds more.
    const timer = setTimeout(
      () => {
        void pid.then((p) => p && tryKill(p))
        child.kill('SIGKILL')
      },
      options.dumpOnExit ? 60_000 : 3000,
    )
    await exited
    clearTimeout(timer)
  }
  const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000)
  let exitCode: number | null | undefined
  void exited.then((code) => {
    exitCode = code
  })
  for (;;) {
    if (exitCode !== undefined)
      throw new AnvilStartError(`anvil exited with code ${exitCode} before it was ready`, output)
    try {
      const chainId = await rpc.call<string>('eth_chainId')
      if (Number(chainId) !== options.chainId)
        throw new AnvilStartError(`anvil on port ${port} reports chain id ${chainId}`, output)
      return { url, rpc, home, exited, stop }
    } catch (error) {
      if (error instanceof AnvilStartError) {
        await stop()
        throw error
      }
    }
    if (Date.now() > deadline) {
      await stop()
      throw new AnvilStartError(
        `anvil did not answer on port ${port} within ${options.readyTimeoutMs ?? 20_000} ms`,
        output,
      )
    }
    await new Promise((r) => setTimeout(r, 30))
  }
}
