import { startSandbox } from './app'
import { parseOptions, UsageError } from './config'

/**
 * `npm run sandbox:seed [-- --state-dir DIR]`: fills the seeded-chain cache and exits, so CI
 * (or a first run) pays the one-time seeding before tests that start many sandboxes.
 */
const log = (message: string): void => {
  process.stderr.write(`sandbox: ${message}\n`)
}

try {
  const started = Date.now()
  const options = { ...parseOptions(process.argv.slice(2)), blockTimeS: 0 }
  const sandbox = await startSandbox(options, {
    progress: (p) => process.stderr.write(`sandbox-progress ${JSON.stringify(p)}\n`),
    log,
  })
  await sandbox.stop()
  for (const n of sandbox.networks) {
    log(
      `${n.spec.name}: ${n.seeded ? `seeded in ${(n.manifest.seedMs / 1000).toFixed(1)} s` : n.source === 'shipped' ? 'unpacked from the shipped state' : 'already cached'}; busy address in ${n.manifest.whaleTxs} transactions`,
    )
  }
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s (cache: ${options.stateDir})`)
} catch (error) {
  log(
    error instanceof UsageError
      ? error.message
      : `seeding failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  )
  process.exit(error instanceof UsageError ? 2 : 1)
}
