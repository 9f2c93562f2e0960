import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { deadExports } from './dead-exports.mjs'

const made: string[] = []
afterEach(() => made.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

/** A throwaway repository holding `files` (path → text). */
function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'dead-exports-'))
  made.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

const run = (root: string): string[] => deadExports({ root })

describe('dead-exports (npm run lint)', () => {
  it('fails on a value export no other file imports, and passes once another file uses it', () => {
    const files = {
      'src/a.ts':
        'export const used = 1\nexport function lonely(): number {\n  return used\n}\nexport type T = number\n',
      'src/b.ts': "import { used } from './a'\nexport default used\n",
    }
    expect(run(repo(files))).toEqual([
      expect.stringMatching(/^src\/a\.ts:2 "lonely" is exported but no other file imports it/),
    ])
    const fixed = { ...files, 'src/c.test.ts': "import { lonely } from './a'\nlonely()\n" }
    expect(run(repo(fixed))).toEqual([])
  })

  it('follows the @shared alias, index files, re-exports, namespace and dynamic imports', () => {
    const root = repo({
      'src/shared/x.ts': 'export const viaAlias = 1\n',
      'src/lib/index.ts': "export { inner } from './inner'\n",
      'src/lib/inner.ts': 'export const inner = 2\n',
      'src/ns.ts': 'export const n1 = 1\nexport const n2 = 2\n',
      'src/lazy.ts': 'export const late = 3\n',
      'src/use.ts':
        "import { viaAlias } from '@shared/x'\nimport { inner } from './lib'\nimport * as ns from './ns'\nexport default async () => [viaAlias, inner, ns, await import('./lazy')]\n",
    })
    expect(run(root)).toEqual([])
  })

  it('fails on a re-export through an index that nobody imports', () => {
    const root = repo({
      'src/lib/index.ts': "export { inner, other } from './inner'\n",
      'src/lib/inner.ts': 'export const inner = 2\nexport const other = 3\n',
      'src/use.ts': "import { inner } from './lib'\nexport default inner\n",
    })
    expect(run(root)).toEqual([expect.stringMatching(/^src\/lib\/index\.ts:1 "other" is exported but no other file/)])
  })

  it('fails on a shipping module only specs import: test support belongs under testing/', () => {
    const root = repo({
      'src/feature/edges.ts': 'export const edgeOf = () => 1\n',
      'src/feature/graph.test.ts': "import { edgeOf } from './edges'\nedgeOf()\n",
      'src/testing/samples.ts': 'export const sample = 1\n',
      'src/feature/other.test.ts': "import { sample } from '../testing/samples'\nsample\n",
    })
    expect(run(root)).toEqual([
      expect.stringMatching(
        /^src\/feature\/edges\.ts:1 only specs import this module .*move it under a testing\/ folder/,
      ),
    ])
  })

  it('the repository itself is clean', () => {
    expect(deadExports({ root: join(import.meta.dirname, '..') })).toEqual([])
  })
})
