import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import * as prettier from 'prettier'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')

/** What `prettier --check` decides for code standing at `file`, with the project's config. */
async function formatted(file: string, code: string): Promise<boolean> {
  const path = resolve(ROOT, file)
  const config = await prettier.resolveConfig(path)
  return prettier.check(code, { ...config, filepath: path })
}

describe('formatting is part of lint', () => {
  it('npm run lint runs prettier --check over the whole tree, and npm test runs it too', () => {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    expect(pkg.scripts.lint).toMatch(/eslint .*&& prettier --check \./)
    expect(readFileSync(resolve(ROOT, 'scripts', 'test.mjs'), 'utf8')).toMatch(
      /check\('format', bin\('prettier'\), \['--check', '\.'\]\)/,
    )
  })

  it('rejects an unformatted file and accepts its formatted form, with the project config', async () => {
    const messy = 'import {a} from \'./a\'\nexport const x = {a:a,  b : "b"};\n'
    expect(await formatted('src/shared/zz-example.ts', messy)).toBe(false)
    const config = await prettier.resolveConfig(resolve(ROOT, 'src/shared/zz-example.ts'))
    const clean = await prettier.format(messy, { ...config, filepath: resolve(ROOT, 'src/shared/zz-example.ts') })
    expect(clean).toBe("import { a } from './a'\nexport const x = { a: a, b: 'b' }\n")
    expect(await formatted('src/shared/zz-example.ts', clean)).toBe(true)
  })
})
