import { Redactor } from '../../util/logger'
import { KeyStore } from '../key-store'

/**
 * Test support, run as a child process by keychain-deadline.test.ts: the real keytar, in
 * whatever D-Bus environment the test gave this process. Prints one JSON line with what the
 * key store answered and how long each step took, then exits (a keytar call that never
 * answers must not keep the process alive).
 */
const service = process.argv[2] ?? 'ChainscopeProbe'
const store = new KeyStore({ service, redactor: new Redactor(), deadlineMs: Number(process.argv[3] ?? 2000) })
const steps: Record<string, { ms: number; value?: unknown; error?: unknown }> = {}
const step = async (name: string, run: () => Promise<unknown>): Promise<void> => {
  const started = performance.now()
  try {
    steps[name] = { ms: Math.round(performance.now() - started), value: await run() }
  } catch (error) {
    steps[name] = {
      ms: Math.round(performance.now() - started),
      error: error instanceof Error ? { name: error.name, message: error.message } : String(error),
    }
  }
  steps[name]!.ms = Math.round(performance.now() - started)
}
const probe = { profileId: 'probe', account: 'probe' }
await step('statusBefore', () => store.status(probe))
await step('set', () => store.set(probe, 'probe-key-0123-ABCD', false))
await step('statusAfter', () => store.status(probe))
await step('clear', () => store.clear(probe))
process.stdout.write(`${JSON.stringify(steps)}\n`, () => {
  // A hung keytar thread blocks process.exit (libuv joins its threads): end by signal then.
  if (store.stuck) process.kill(process.pid, 'SIGKILL')
  else process.exit(0)
})
