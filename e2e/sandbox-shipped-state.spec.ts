import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { SEED_FINGERPRINT } from '../sandbox/seed/fingerprint'
import { expect, test } from './fixtures'

const ROOT = resolve(import.meta.dirname, '..')

/**
 * A fresh clone's first start: the BUILT sandbox (out/main/sandbox.js) with an empty state
 * folder loads the shipped default seed instead of seeding, and serves the fingerprinted chain.
 * How long that takes is measured by `npm run bench:sandbox` (first_start_s), not asserted here.
 */
test('the built sandbox starts from the shipped state with an empty state folder, without seeding', async () => {
  test.setTimeout(120_000)
  const stateDir = mkdtempSync(join(tmpdir(), 'sandbox-fresh-clone-'))
  const child = spawn(
    process.execPath,
    [join(ROOT, 'out/main/sandbox.js'), '--state-dir', stateDir, '--block-time', '0', '--api-key', 'e2e-shipped-key'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  try {
    const ready = await new Promise<string>((resolveLine, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready in 90 s:\n${stderr}`)), 90_000)
      createInterface({ input: child.stdout }).once('line', (line) => {
        clearTimeout(timer)
        resolveLine(line)
      })
      void exited.then(() => reject(new Error(`exited before ready:\n${stderr}`)))
    })
    const info = JSON.parse(ready) as { rpc_url: string; networks: string[] }
    expect(stderr).toMatch(/alpha: .*loaded from the shipped state/)
    expect(stderr).toMatch(/beta: .*loaded from the shipped state/)
    expect(stderr).not.toMatch(/"stage":"seeding"|seeded in/)
    expect(stderr).toMatch(/sandbox-progress \{"stage":"unpacking"/)
    // The chain served is the fingerprinted one, at its pinned head.
    for (const [position, network] of info.networks.entries()) {
      const pinned = SEED_FINGERPRINT[7001 + position]!
      const response = await fetch(`${info.rpc_url}/${network}/e2e-shipped-key`, {
        method: 'POST',
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_getBlockByNumber',
          params: [`0x${pinned.head.toString(16)}`, false],
        }),
      })
      expect(((await response.json()) as { result: { hash: string } }).result.hash).toBe(pinned.headHash)
    }
    // Unpacked into the state folder: later starts load from the cache.
    expect(
      readdirSync(stateDir)
        .filter((n) => /^\d+-[0-9a-f]{16}$/.test(n))
        .sort(),
    ).toHaveLength(2)
  } finally {
    child.kill('SIGTERM')
    await exited
    rmSync(stateDir, { recursive: true, force: true })
  }
})
