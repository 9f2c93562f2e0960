import { ESLint } from 'eslint'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import tseslint from 'typescript-eslint'
import vueParser from 'vue-eslint-parser'
import { afterEach, describe, expect, it } from 'vitest'
import importCycles from './import-cycles.js'

const trees: string[] = []

/** Writes a fixture tree of files into a fresh folder and returns the folder. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'import-cycles-'))
  trees.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** The rule's messages per linted file of a fixture tree, linted as the project lints src/. */
async function cycles(root: string, files: string[]): Promise<Record<string, string[]>> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
      },
      {
        files: ['**/*.vue'],
        languageOptions: { parser: vueParser, parserOptions: { parser: tseslint.parser, sourceType: 'module' } },
      },
      {
        files: ['**/*.ts', '**/*.vue'],
        plugins: { chainscope: importCycles },
        rules: { 'chainscope/import-cycles': 'error' },
      },
    ],
  })
  const results = await eslint.lintFiles(files.map((f) => join(root, f)))
  const out: Record<string, string[]> = {}
  for (const result of results) {
    const path = result.filePath.slice(root.length + 1)
    out[path] = result.messages.map((m) => {
      expect(m.ruleId, m.message).toBe('chainscope/import-cycles')
      return `${m.line}: ${m.message}`
    })
  }
  return out
}

describe('chainscope/import-cycles', () => {
  it('reports each import that closes a cycle, on its line, with the whole ring and the reason', async () => {
    const root = tree({
      'src/a.ts': "import { b } from './b'\nexport const a = () => b\n",
      'src/b.ts': "import { c } from './deep/c'\nexport const b = () => c\n",
      'src/deep/c.ts': "export const other = 1\nimport { a } from '../a'\nexport const c = () => a\n",
    })
    const found = await cycles(root, ['src/a.ts', 'src/b.ts', 'src/deep/c.ts'])
    expect(found['src/a.ts']).toEqual([expect.stringContaining('1: Import cycle (chainscope/import-cycles): ')])
    expect(found['src/a.ts']?.[0]).toContain('src/a.ts → src/b.ts → src/deep/c.ts → src/a.ts.')
    expect(found['src/a.ts']?.[0]).toMatch(/load order/)
    expect(found['src/a.ts']?.[0]).toMatch(/cannot tell which module is the lower one/)
    expect(found['src/b.ts']?.[0]).toContain('src/b.ts → src/deep/c.ts → src/a.ts → src/b.ts.')
    expect(found['src/deep/c.ts']).toEqual([expect.stringContaining('2: Import cycle')])
    expect(found['src/deep/c.ts']?.[0]).toContain('src/deep/c.ts → src/a.ts → src/b.ts → src/deep/c.ts.')
  })

  it('passes a tree whose imports all run one way, shared leaves included', async () => {
    const root = tree({
      'src/top.ts': "import { mid } from './mid'\nimport { leaf } from './leaf'\nexport const top = [mid, leaf]\n",
      'src/mid.ts': "import { leaf } from './leaf'\nimport { z } from 'zod'\nexport const mid = [leaf, z]\n",
      'src/leaf.ts': "import { readFileSync } from 'node:fs'\nexport const leaf = readFileSync\n",
    })
    expect(await cycles(root, ['src/top.ts', 'src/mid.ts', 'src/leaf.ts'])).toEqual({
      'src/top.ts': [],
      'src/mid.ts': [],
      'src/leaf.ts': [],
    })
  })

  it('counts type-only imports, re-exports and import() types as edges', async () => {
    const root = tree({
      'src/service.ts': "import type { Options } from './options'\nexport class Service { o?: Options }\n",
      'src/options.ts': "import type { Service } from './service'\nexport type Options = { s: Service }\n",
      'src/barrel.ts': "export * from './inner'\n",
      'src/inner.ts': "export type Inner = import('./barrel').Other\nexport type Other = number\n",
      'src/legacy.ts':
        "export const before = 1\nimport other = require('./legacy-back')\nexport const legacy = other\n",
      'src/legacy-back.ts': "import { legacy } from './legacy'\nexport = legacy\n",
    })
    const found = await cycles(root, [
      'src/service.ts',
      'src/options.ts',
      'src/barrel.ts',
      'src/inner.ts',
      'src/legacy.ts',
    ])
    expect(found['src/service.ts']?.[0]).toContain('src/service.ts → src/options.ts → src/service.ts.')
    expect(found['src/options.ts']).toHaveLength(1)
    expect(found['src/barrel.ts']?.[0]).toContain('src/barrel.ts → src/inner.ts → src/barrel.ts.')
    expect(found['src/inner.ts']).toHaveLength(1)
    expect(found['src/legacy.ts']).toEqual([
      expect.stringContaining(
        '2: Import cycle (chainscope/import-cycles): src/legacy.ts → src/legacy-back.ts → src/legacy.ts.',
      ),
    ])
  })

  it('resolves the @shared alias, index files and .vue single-file components', async () => {
    const root = tree({
      'src/shared/format/index.ts': "import { view } from '../../renderer/View.vue'\nexport const format = view\n",
      'src/renderer/View.vue':
        '<template><p>{{ x }}</p></template>\n<script setup lang="ts">\nimport { format } from \'@shared/format\'\nconst x = format\n</script>\n',
      'src/renderer/Fine.vue':
        '<template><p>{{ x }}</p></template>\n<script setup lang="ts">\nimport { format } from \'@shared/format\'\nconst x = format\n</script>\n',
    })
    const found = await cycles(root, ['src/shared/format/index.ts', 'src/renderer/View.vue', 'src/renderer/Fine.vue'])
    expect(found['src/renderer/View.vue']).toEqual([
      expect.stringContaining(
        '3: Import cycle (chainscope/import-cycles): src/renderer/View.vue → src/shared/format/index.ts → src/renderer/View.vue.',
      ),
    ])
    expect(found['src/shared/format/index.ts']).toHaveLength(1)
    // Fine.vue imports into the ring but nothing imports it back: not part of a cycle.
    expect(found['src/renderer/Fine.vue']).toEqual([])
  })

  it('is registered for src/, sandbox/ and bench/ in the project config', async () => {
    const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '..') })
    for (const file of ['src/main/core/app-core.ts', 'src/renderer/src/App.vue', 'sandbox/cli.ts', 'bench/client.ts']) {
      const config = await eslint.calculateConfigForFile(resolve(import.meta.dirname, '..', file))
      expect(config.rules['chainscope/import-cycles'], file).toEqual([2])
    }
  })
})
