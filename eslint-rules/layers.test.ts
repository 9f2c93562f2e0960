import { ESLint } from 'eslint'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/** Lints code as if it stood at `file`, with the project's real ESLint config. */
async function layerMessages(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '..') })
  const [result] = await eslint.lintText(code, { filePath: resolve(import.meta.dirname, '..', file) })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'chainscope/layers').map((m) => m.message)
}

describe('chainscope/layers', () => {
  it('rejects src/renderer importing src/main, naming the rule and the reason', async () => {
    const messages = await layerMessages(
      'src/renderer/src/bad.ts',
      "import { createCore } from '../../main/core/app-core'\nexport const x = createCore\n",
    )
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatch(/^Layer rule \(chainscope\/layers\): src\/renderer must never import src\/main/)
  })

  it('rejects src/shared importing electron', async () => {
    const messages = await layerMessages('src/shared/bad.ts', "import { app } from 'electron'\nexport const x = app\n")
    expect(messages).toEqual([expect.stringMatching(/chainscope\/layers.*must not import electron/)])
  })

  it('rejects Node built-ins in shared and renderer, and keytar in the renderer', async () => {
    expect(
      await layerMessages(
        'src/shared/bad.ts',
        "import { readFileSync } from 'node:fs'\nexport const x = readFileSync\n",
      ),
    ).toHaveLength(1)
    expect(
      await layerMessages('src/renderer/src/bad.ts', "import { join } from 'path'\nexport const x = join\n"),
    ).toHaveLength(1)
    expect(
      await layerMessages('src/renderer/src/bad.ts', "import keytar from 'keytar'\nexport const x = keytar\n"),
    ).toHaveLength(1)
  })

  it('rejects vue in main, main importing the renderer, preload importing main, sandbox importing the app', async () => {
    expect(
      await layerMessages('src/main/core/bad.ts', "import { ref } from 'vue'\nexport const x = ref\n"),
    ).toHaveLength(1)
    expect(
      await layerMessages('src/main/core/bad.ts', "import x from '../../renderer/src/main'\nexport default x\n"),
    ).toHaveLength(1)
    expect(
      await layerMessages(
        'src/preload/bad.ts',
        "import { createCore } from '../main/core/app-core'\nexport const x = createCore\n",
      ),
    ).toHaveLength(1)
    expect(await layerMessages('src/preload/bad.ts', "import { z } from 'zod'\nexport const x = z\n")).toHaveLength(1)
    expect(
      await layerMessages('src/preload/bad.ts', "import { vi } from 'vitest'\nexport const x = vi\n"),
    ).toHaveLength(1)
    expect(
      await layerMessages(
        'sandbox/bad.ts',
        "import { createCore } from '../src/main/core/app-core'\nexport const x = createCore\n",
      ),
    ).toHaveLength(1)
  })

  it('keeps the core free of both hosts and the hosts apart', async () => {
    const core = await layerMessages('src/main/core/bad.ts', "import { app } from 'electron'\nexport const x = app\n")
    expect(core).toEqual([expect.stringMatching(/chainscope\/layers.*src\/main\/core runs under the web host too/)])
    expect(
      await layerMessages(
        'src/main/core/data/bad.ts',
        "import { dialog } from 'electron/main'\nexport const x = dialog\n",
      ),
    ).toHaveLength(1)
    expect(
      await layerMessages(
        'src/main/core/bad.ts',
        "import { startWebHost } from '../web/web-host'\nexport const x = startWebHost\n",
      ),
    ).toEqual([expect.stringMatching(/src\/main\/core must not import src\/main\/web/)])
    expect(
      await layerMessages('src/main/core/bad.ts', "import { x } from '../electron/data-dir'\nexport const y = x\n"),
    ).toEqual([expect.stringMatching(/src\/main\/core must not import src\/main\/electron/)])
    expect(
      await layerMessages('src/main/web/bad.ts', "import { app } from 'electron'\nexport const x = app\n"),
    ).toHaveLength(1)
    expect(
      await layerMessages('src/main/web/bad.ts', "import { x } from '../electron/data-dir'\nexport const y = x\n"),
    ).toHaveLength(1)
    expect(
      await layerMessages('src/main/electron/bad.ts', "import { x } from '../web/web-host'\nexport const y = x\n"),
    ).toHaveLength(1)
    expect(
      await layerMessages(
        'src/renderer/src/bad.ts',
        "import { x } from '../../main/web/web-host'\nexport const y = x\n",
      ),
    ).toHaveLength(1)
  })

  it('allows the permitted directions', async () => {
    expect(
      await layerMessages(
        'src/renderer/src/ok.ts',
        "import type { AppInfo } from '@shared/bridge/contract'\nexport type X = AppInfo\n",
      ),
    ).toEqual([])
    expect(
      await layerMessages(
        'src/main/core/ok.ts',
        "import { readFileSync } from 'node:fs'\nimport { ok } from '../../shared/bridge/errors'\nexport const x = [readFileSync, ok]\n",
      ),
    ).toEqual([])
    expect(
      await layerMessages(
        'src/main/electron/ok.ts',
        "import { app } from 'electron'\nimport { createCore } from '../core/app-core'\nexport const x = [app, createCore]\n",
      ),
    ).toEqual([])
    expect(
      await layerMessages(
        'src/main/web/ok.ts',
        "import { createCore } from '../core/app-core'\nexport const x = createCore\n",
      ),
    ).toEqual([])
    expect(
      await layerMessages(
        'src/preload/ok.ts',
        "import { contextBridge } from 'electron'\nimport { IPC_CHANNELS } from '../shared/bridge/contract'\nexport const x = [contextBridge, IPC_CHANNELS]\n",
      ),
    ).toEqual([])
    expect(
      await layerMessages('src/preload/index.test.ts', "import { vi } from 'vitest'\nexport const x = vi\n"),
    ).toEqual([])
    expect(
      await layerMessages(
        'sandbox/ok.ts',
        "import { transactionSchema } from '../src/shared/domain/service-schemas'\nexport const x = transactionSchema\n",
      ),
    ).toEqual([])
  })
})
