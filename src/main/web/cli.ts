import { z } from 'zod'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { errorMessage } from '@shared/guards'
import { createCore } from '../core/app-core'
import { defaultDataDir } from '../core/util/data-dir'
import { createLogger, Redactor } from '../core/util/logger'
import { childProcessSandboxLauncher } from '../core/sandbox/sandbox-process'
import { SANDBOX_LIVE_DIR } from '../core/sandbox/sandbox-launcher'
import { startWebHost } from './web-host'

/**
 * `node out/main/web.js [--port N] [--host 127.0.0.1] [--data-dir DIR]`: the web host, for
 * machines without the Electron runtime. Prints one line `Chainscope web host: <url>`.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.CHAINSCOPE_PORT ?? '7419' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string', default: process.env.CHAINSCOPE_DATA_DIR ?? defaultDataDir() },
      'static-dir': { type: 'string' },
    },
    strict: true,
  })
  const here = dirname(fileURLToPath(import.meta.url))
  const staticDir = values['static-dir'] ?? join(here, '..', 'renderer')
  if (!existsSync(join(staticDir, 'index.html'))) {
    throw new Error(`No built renderer in ${staticDir}: run "npm run build" first.`)
  }
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, not ${values.port}`)
  const dataDir = values['data-dir']
  const redactor = new Redactor()
  const log = createLogger(redactor, join(dataDir, 'logs', 'main.log'))
  const pkg = z.object({ version: z.string() }).parse(JSON.parse(readFileSync(packageJson(here), 'utf8')))
  // The built-in sandbox: the bundled sandbox CLI next to this file, run by this same Node.
  // CHAINSCOPE_SANDBOX_ARGS adds flags (e.g. "--block-time 2"), split on spaces.
  const sandboxScript = join(here, 'sandbox.js')
  const extra = (process.env.CHAINSCOPE_SANDBOX_ARGS ?? '').split(' ').filter(Boolean)
  const sandboxLauncher = existsSync(sandboxScript)
    ? childProcessSandboxLauncher({
        args: [sandboxScript, '--port', '0', ...extra],
        cwd: join(here, '..', '..'),
        // The sandbox's own chains, kept across its restarts: per data folder, never shared.
        liveStateDir: join(dataDir, SANDBOX_LIVE_DIR),
        log,
      })
    : undefined
  if (!sandboxLauncher) log.warn(`no sandbox at ${sandboxScript}; the sandbox profile is unavailable`)
  const core = await createCore({
    host: 'web',
    version: pkg.version,
    platform: process.platform,
    dataDir,
    log,
    redactor,
    sandboxLauncher,
  })
  const host = await startWebHost({ bridge: core.bridge, staticDir, host: values.host, port })
  process.stdout.write(`Chainscope web host: ${host.url}\n`)
  log.info(`web host listening on ${host.origin}`)
  let stopping = false
  const stop = async (): Promise<void> => {
    if (stopping) return
    stopping = true
    // Exit within 2 s whatever is in flight (docs/decisions/web-host-shutdown.md): connections are closed at once,
    // the core gets 1.5 s to stop the sandbox and write its counts, then the process goes.
    setTimeout(() => {
      log.warn('shutdown took longer than 2 s; exiting anyway')
      exit(1, true)
    }, 2000).unref()
    await host.close()
    const disposed = await Promise.race([
      core.dispose().then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), 1500).unref()),
    ])
    if (!disposed) log.warn('the core did not finish stopping within 1.5 s; exiting anyway')
    exit(0, core.keychainStuck())
  }
  /**
   * `process.exit` waits for native threads (libuv joins them at exit): a keychain call still
   * running (it may never answer) would hold it forever. Then the process ends by the default
   * SIGTERM action.
   */
  const exit = (code: number, stuck: boolean): void => {
    if (!stuck) process.exit(code)
    log.warn('a keychain call is still running; ending by signal')
    process.removeAllListeners('SIGTERM')
    process.kill(process.pid, 'SIGTERM')
  }
  process.on('SIGINT', () => void stop())
  process.on('SIGTERM', () => void stop())
}

/** The package.json above `dir`: next to out/ when built, at the repository root when run from src/. */
function packageJson(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json'))) return join(d, 'package.json')
    if (dirname(d) === d) throw new Error(`No package.json above ${dir}.`)
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Chainscope web host could not start: ${errorMessage(error)}\n`)
  process.exit(1)
})
