import { startSandbox } from './testing'

/**
 * Test support: a host that starts the sandbox with stdin from /dev/null, as Electron's utility
 * process does (no pipe to close), prints `ready <base url>` and waits to be killed. Extra
 * arguments go to the sandbox. Run with `node --import tsx sandbox/no-stdin-host.ts`.
 */
const sandbox = await startSandbox({ args: process.argv.slice(2) })
process.stdout.write(`ready ${sandbox.info.base_url}\n`)
process.on('SIGTERM', () => {
  void sandbox.stop().then(() => process.exit(0))
})
setInterval(() => {}, 60_000)
