import { join } from 'node:path'
import { build } from 'esbuild'

/**
 * Bundles a test's child-process script into one ESM file in `dir`, so each of the many
 * writers a crash test starts (and kills) runs in tens of milliseconds.
 */
export async function bundleFixture(entry: string, dir: string): Promise<string> {
  const outfile = join(dir, 'writer.mjs')
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'silent' })
  return outfile
}
