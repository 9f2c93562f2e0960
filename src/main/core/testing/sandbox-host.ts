import { tsxSandboxLauncher } from './sandbox-harness'

/**
 * A stand-in for the app's host process (test support): starts the built-in sandbox through
 * core's own launcher, as the web host does, prints `ready <sandbox base url>` and waits to be
 * killed. Extra arguments go to the sandbox. Run with `node --import tsx sandbox-host.ts`.
 */
const running = await tsxSandboxLauncher(process.argv.slice(2)).launch({})
process.stdout.write(`ready ${running.info.base_url}\n`)
process.on('SIGTERM', () => {
  void running.stop().then(() => process.exit(0))
})
setInterval(() => {}, 60_000)
