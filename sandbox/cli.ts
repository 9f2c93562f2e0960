import { startSandbox, type RunningSandbox } from './app'
import { parseOptions, UsageError } from './config'
import { watchParent } from './parent-watch'

/**
 * `npm run sandbox -- [--port N] [--rate R] [--burst B] [--quota Q] [--api-key K]
 * [--networks a,b] [--block-time S] [--admin] [--no-batch] [--plain-errors] [--state-dir DIR] [--seed-txs N] [--replay DIR]`
 * (also built as out/main/sandbox.js). When ready, exactly one line of JSON goes to stdout;
 * progress (`sandbox-progress {...}`) and logs go to stderr. SIGINT/SIGTERM (and the end of its parent: a closed stdin pipe or a new parent pid) stop both chains
 * and exit 0; a signal while still preparing exits 130 (the chains die with the process, and
 * a half-written seed is never used: cache entries are renamed into place only when complete).
 */
const log = (message: string): void => {
  process.stderr.write(`sandbox: ${message}\n`)
}

let sandbox: RunningSandbox | null = null
let stopping = false

function shutdown(why: string): void {
  if (stopping) return
  stopping = true
  log(`${why}: stopping`)
  if (!sandbox) process.exit(130)
  sandbox.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      log(`stop failed: ${String(error)}`)
      process.exit(1)
    },
  )
}

process.on('SIGINT', () => shutdown('SIGINT'))
process.on('SIGTERM', () => shutdown('SIGTERM'))
// No orphans: the sandbox, and with it both chains, ends when its parent is gone (parent-watch.ts).
// Its pipes then have no reader: a write fails with EPIPE, which must not end the sandbox before
// it has saved its chains and stopped them.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})
watchParent({ onGone: (reason) => shutdown(`the app is gone (${reason})`) })

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2))
  sandbox = await startSandbox(options, {
    progress: (p) => process.stderr.write(`sandbox-progress ${JSON.stringify(p)}\n`),
    log,
  })
  if (stopping) {
    await sandbox.stop()
    process.exit(0)
  }
  process.stdout.write(`${JSON.stringify(sandbox.info)}\n`)
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    log(error.message)
    process.exit(2)
  }
  log(`could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  process.exit(1)
})
