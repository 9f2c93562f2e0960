import { ESLint } from 'eslint'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The fences of eslint.config.js that are not house rules (docs/architecture.md, "What each room
 * may import"; docs/decisions/code-shape-limits.md): each lints a fixture with the project's real
 * config and must fail on it.
 */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '..') })
  const [result] = await eslint.lintText(code, { filePath: resolve(import.meta.dirname, '..', file) })
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`)
}

const FIVE =
  'export function f(a: number, b: number, c: number, d: number, e: number): number {\n  return a + b + c + d + e\n}\n'
const FOUR = 'export function f(a: number, b: number, c: number, d: number): number {\n  return a + b + c + d\n}\n'
const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const v${i} = ${i}`).join('\n') + '\n'

describe('fences of eslint.config.js', () => {
  it('fails a function with five parameters in code that ships or helps specs (testing/), and passes four', async () => {
    expect(await ruleIds('src/main/core/data/bad.ts', FIVE)).toEqual(['max-params'])
    expect(await ruleIds('src/renderer/src/features/flows/bad.ts', FIVE)).toEqual(['max-params'])
    expect(await ruleIds('src/main/core/data/ok.ts', FOUR)).toEqual([])
    expect(await ruleIds('src/main/core/testing/bad.ts', FIVE)).toEqual(['max-params'])
  })

  it('fails a non-test file over 400 lines, and lets a spec be longer', async () => {
    expect(await ruleIds('src/main/core/data/long.ts', lines(401))).toEqual(['max-lines'])
    expect(await ruleIds('src/main/core/data/long.ts', lines(400))).toEqual([])
    expect(await ruleIds('src/main/core/data/long.test.ts', lines(401))).toEqual([])
  })

  it('keeps the parseFloat ban in specs: the spec block adds its bans to the main block, not instead', async () => {
    const code = "export const x = parseFloat('1.5')\n"
    expect(await ruleIds('src/shared/domain/bad.ts', code)).toEqual(['no-restricted-syntax'])
    expect(await ruleIds('src/shared/domain/bad.test.ts', code)).toEqual(['no-restricted-syntax'])
    expect(await ruleIds('src/renderer/src/ui/bad.test.ts', code)).toEqual(['no-restricted-syntax'])
    // and the spec block's own ban still holds beside it
    const sleep = 'export const s = () => new Promise((r) => setTimeout(r, 10))\n'
    expect(await ruleIds('src/shared/domain/bad.test.ts', sleep)).toEqual(['no-restricted-syntax'])
  })
})
