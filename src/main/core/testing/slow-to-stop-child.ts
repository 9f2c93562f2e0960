import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, vi } from 'vitest'

/**
 * A stand-in sandbox that never gets ready and takes 300 ms to stop after SIGTERM, so a test can
 * tell whether whoever stopped it waited for it to be gone. Writes the script into `dir`; run it
 * with `args` and read its pid with `pid()`. Test support only.
 */
export function slowToStopChild(dir: string, name: string): { args: string[]; pid(): Promise<number> } {
  const script = join(dir, 'slow-to-stop.mjs')
  writeFileSync(
    script,
    `import { writeFileSync } from 'node:fs'
process.on('SIGTERM', () => setTimeout(() => process.exit(0), 300))
writeFileSync(process.argv[2], String(process.pid))
setInterval(() => {}, 1000)
`,
  )
  const pidFile = join(dir, `${name}.pid`)
  return {
    args: [script, pidFile],
    pid: () =>
      vi.waitFor(
        () => {
          // A file made but not yet written reads as 0, which is no child's pid.
          const written = Number(readFileSync(pidFile, 'utf8'))
          expect(written).toBeGreaterThan(0)
          return written
        },
        { timeout: 20_000, interval: 20 },
      ),
  }
}
