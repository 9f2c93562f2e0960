import { ESLint } from 'eslint'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/** Lints code as if it stood at `file`, with the project's real ESLint config. */
async function ruleMessages(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '..') })
  const [result] = await eslint.lintText(code, { filePath: resolve(import.meta.dirname, '..', file) })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'chainscope/no-own-fetch-state').map((m) => m.message)
}

const ERROR_REF = `import { ref } from 'vue'
import type { BridgeError } from '@shared/bridge/errors'
export const error = ref<BridgeError | null>(null)
`

const SEQ_GUARD = `let seq = 0
export async function load(read: () => Promise<number>): Promise<number | null> {
  const mine = ++seq
  const v = await read()
  if (mine !== seq) return null
  return v
}
`

describe('chainscope/no-own-fetch-state', () => {
  it('rejects an error ref of its own in a store and in a component', async () => {
    expect(await ruleMessages('src/renderer/src/features/x/x-store.ts', ERROR_REF)).toEqual([
      expect.stringMatching(/^Fetch-state rule .*no ref<BridgeError \| null> of your own/),
    ])
    const sfc = `<script setup lang="ts">\n${ERROR_REF.replace('export const', 'const')}</script>\n<template><p>{{ error }}</p></template>\n`
    expect(await ruleMessages('src/renderer/src/features/x/XPanel.vue', sfc)).toHaveLength(1)
    const shallow = ERROR_REF.replace(/\bref\b/g, 'shallowRef')
    expect(await ruleMessages('src/renderer/src/pages/XView.ts', shallow)).toHaveLength(1)
  })

  it('rejects a hand-written request-sequence guard', async () => {
    expect(await ruleMessages('src/renderer/src/features/x/x-store.ts', SEQ_GUARD)).toEqual([
      expect.stringMatching(/hand-written request-sequence guard/),
    ])
    const generation = SEQ_GUARD.replace(/seq/g, 'generation').replace('++generation', '(generation++, generation)')
    expect(await ruleMessages('src/renderer/src/features/x/x-store.ts', generation)).toHaveLength(1)
  })

  it('allows the layer itself, counters that are not guards, and other refs', async () => {
    expect(await ruleMessages('src/renderer/src/platform/fetched.ts', ERROR_REF + SEQ_GUARD)).toEqual([])
    const counter = `let n = 0\nexport function more(): boolean {\n  n++\n  return n >= 3\n}\n`
    expect(await ruleMessages('src/renderer/src/features/x/x-store.ts', counter)).toEqual([])
    const other = `import { ref } from 'vue'\nexport const name = ref<string | null>(null)\n`
    expect(await ruleMessages('src/renderer/src/features/x/x-store.ts', other)).toEqual([])
  })
})
