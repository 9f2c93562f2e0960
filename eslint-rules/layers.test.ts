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
        "import { readFileSync } from 'node:fs'\nimport { ok } from '@shared/bridge/errors'\nexport const x = [readFileSync, ok]\n",
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
        "import { contextBridge } from 'electron'\nimport { IPC_CHANNELS } from '@shared/bridge/contract'\nexport const x = [contextBridge, IPC_CHANNELS]\n",
      ),
    ).toEqual([])
    expect(
      await layerMessages('src/preload/index.test.ts', "import { vi } from 'vitest'\nexport const x = vi\n"),
    ).toEqual([])
    expect(
      await layerMessages(
        'sandbox/ok.ts',
        "import { transactionSchema } from '@shared/domain/service-schemas'\nexport const x = transactionSchema\n",
      ),
    ).toEqual([])
  })
})

describe('chainscope/layers inside the renderer (pages → features → platform → ui → shared)', () => {
  const R = 'src/renderer/src'
  const importing = (spec: string, names = 'x') => `import { ${names} } from '${spec}'\nexport const y = [${names}]\n`

  it('rejects a ui/ widget importing a store, a feature, a page or pinia, and says to take a prop', async () => {
    expect(await layerMessages(`${R}/ui/Bad.ts`, importing('../platform/clock-store', 'useClockStore'))).toEqual([
      expect.stringMatching(
        /^Layer rule \(chainscope\/layers\): ui\/ holds props-in, events-out widgets.*platform\/.*prop/,
      ),
    ])
    expect(await layerMessages(`${R}/ui/Bad.ts`, importing('../features/balances', 'useBalancesStore'))).toEqual([
      expect.stringMatching(/ui\/ .* must not import features\//),
    ])
    expect(await layerMessages(`${R}/ui/Bad.ts`, importing('../pages/address-tabs', 'ADDRESS_TABS'))).toHaveLength(1)
    expect(await layerMessages(`${R}/ui/Bad.ts`, importing('pinia', 'defineStore'))).toEqual([
      expect.stringMatching(/ui\/ widgets hold no store/),
    ])
    expect(await layerMessages(`${R}/ui/Bad.ts`, importing('vue-router', 'useRouter'))).toEqual([
      expect.stringMatching(/ui\/ may import only ui\/, @shared and the view libraries/),
    ])
    const sfc = `<script setup lang="ts">\nimport { useLimiterStore } from '../platform/limiter-store'\nconst l = useLimiterStore()\n</script>\n<template><p>{{ l.state }}</p></template>\n`
    expect(await layerMessages(`${R}/ui/Bad.vue`, sfc)).toHaveLength(1)
  })

  it('lets ui/ import ui/, @shared and the view libraries, and its specs the test helpers', async () => {
    expect(
      await layerMessages(
        `${R}/ui/Ok.ts`,
        "import { computed } from 'vue'\nimport { DialogRoot } from 'reka-ui'\nimport { formatAge } from './time'\nimport { formatUnits } from '@shared/domain/amount'\nexport const y = [computed, DialogRoot, formatAge, formatUnits]\n",
      ),
    ).toEqual([])
    expect(
      await layerMessages(
        `${R}/ui/ok.test.ts`,
        "import { it } from 'vitest'\nimport { mount } from '@vue/test-utils'\nimport { setupTestApp } from '../testing/mount'\nexport const y = [it, mount, setupTestApp]\n",
      ),
    ).toEqual([])
  })

  it('rejects a feature reaching into another feature, or into a page', async () => {
    expect(
      await layerMessages(
        `${R}/features/flows/bad.ts`,
        importing('../transactions/transactions-store', 'useTransactionsStore'),
      ),
    ).toEqual([
      expect.stringMatching(/features\/flows may reach features\/transactions only through its index.*public face/),
    ])
    expect(
      await layerMessages(
        `${R}/features/flows/bad.ts`,
        "import TxDetail from '../transactions/TxDetail.vue'\nexport const y = TxDetail\n",
      ),
    ).toHaveLength(1)
    expect(
      await layerMessages(`${R}/features/flows/bad.ts`, importing('../../pages/address-tabs', 'ADDRESS_TABS')),
    ).toEqual([expect.stringMatching(/features\/flows must not import pages\/.*a page composes features/)])
  })

  it('lets a feature use another through its index, its own files, platform/ and ui/', async () => {
    expect(
      await layerMessages(
        `${R}/features/flows/ok.ts`,
        "import { useTransactionsStore } from '../transactions'\nimport { useWatchlistsStore } from '../watchlists/index'\nimport { buildFlowGraph } from './flow-graph'\nimport { bridge } from '../../platform/bridge'\nimport { csvCell } from '../../ui/clipboard'\nexport const y = [useTransactionsStore, useWatchlistsStore, buildFlowGraph, bridge, csvCell]\n",
      ),
    ).toEqual([])
  })

  it('rejects a page importing a feature internal, and allows the index', async () => {
    expect(
      await layerMessages(`${R}/pages/Bad.ts`, importing('../features/balances/balances-store', 'useBalancesStore')),
    ).toEqual([expect.stringMatching(/pages\/ composes features through their index.*features\/balances\/index\.ts/)])
    expect(
      await layerMessages(`${R}/Bad.ts`, importing('./features/settings/settings-store', 'useSettingsStore')),
    ).toEqual([expect.stringMatching(/The app root composes features through their index/)])
    expect(
      await layerMessages(
        `${R}/pages/Ok.ts`,
        "import { useBalancesStore } from '../features/balances'\nimport { useChainStore } from '../platform/chain-store'\nexport const y = [useBalancesStore, useChainStore]\n",
      ),
    ).toEqual([])
  })

  it('rejects platform/ importing a feature or a page, and allows ui/', async () => {
    expect(await layerMessages(`${R}/platform/bad.ts`, importing('../features/balances', 'useBalancesStore'))).toEqual([
      expect.stringMatching(/platform\/ is what every feature stands on.*must not import features\//),
    ])
    expect(
      await layerMessages(`${R}/platform/bad.ts`, importing('../pages/address-tabs', 'ADDRESS_TABS')),
    ).toHaveLength(1)
    expect(await layerMessages(`${R}/platform/ok.ts`, importing('../ui/errors', 'describeError'))).toEqual([])
  })

  it('rejects shipping code importing testing/, and allows specs to', async () => {
    expect(await layerMessages(`${R}/features/flows/bad.ts`, importing('../../testing/samples', 'makeTx'))).toEqual([
      expect.stringMatching(/testing\/ holds fakes and samples for specs/),
    ])
    expect(await layerMessages(`${R}/features/flows/ok.test.ts`, importing('../../testing/samples', 'makeTx'))).toEqual(
      [],
    )
  })

  it('rejects shipping code anywhere in src/ importing a testing/ module: @shared/testing, core/testing', async () => {
    const testing = /testing\/ holds fakes and samples for specs; code that ships must not import it/
    expect(
      await layerMessages(
        `${R}/features/questions/fixture-items.ts`,
        importing('@shared/testing/blockscout-fixtures', 'readFixture'),
      ),
    ).toEqual([expect.stringMatching(testing)])
    expect(await layerMessages('src/main/core/data/bad.ts', importing('../testing/test-core', 'testCore'))).toEqual([
      expect.stringMatching(testing),
    ])
    expect(await layerMessages('src/main/web/bad.ts', importing('../core/keys/testing/fake-keychain', 'k'))).toEqual([
      expect.stringMatching(testing),
    ])
    expect(await layerMessages('src/shared/domain/bad.ts', importing('../testing/service-samples', 's'))).toEqual([
      expect.stringMatching(testing),
    ])
    // Specs and testing/ itself may.
    expect(await layerMessages('src/main/core/data/ok.test.ts', importing('../testing/test-core', 'testCore'))).toEqual(
      [],
    )
    expect(
      await layerMessages('src/main/core/testing/ok.ts', importing('@shared/testing/service-samples', 's')),
    ).toEqual([])
    expect(await layerMessages(`${R}/testing/ok.ts`, importing('@shared/testing/blockscout-fixtures', 'f'))).toEqual([])
  })

  it('refuses a renderer room it does not know, in either direction, saying why', async () => {
    // A new helpers/ folder reaching into a feature's insides: allowed while unknown rooms were.
    expect(
      await layerMessages(`${R}/helpers/format.ts`, importing('../features/flows/flow-graph', 'buildGraph')),
    ).toEqual([
      expect.stringMatching(
        /^Layer rule \(chainscope\/layers\): A file in "helpers\/" is not a room of the renderer .*refuses it.*name the new room in eslint-rules\/layers\.js/,
      ),
    ])
    expect(
      await layerMessages(`${R}/helpers/format.ts`, importing('@shared/domain/amount', 'formatUnits')),
    ).toHaveLength(1)
    expect(await layerMessages(`${R}/features/flows/x.ts`, importing('../../helpers/format', 'f'))).toEqual([
      expect.stringMatching(/"\.\.\/\.\.\/helpers\/format" is in "helpers\/" is not a room of the renderer/),
    ])
    // Every named room and the app root still lint clean for a lawful import.
    for (const file of [
      `${R}/main.ts`,
      `${R}/pages/P.ts`,
      `${R}/features/f/x.ts`,
      `${R}/platform/p.ts`,
      `${R}/ui/u.ts`,
    ]) {
      expect(await layerMessages(file, importing('@shared/domain/amount', 'formatUnits'))).toEqual([])
    }
  })
})

describe('chainscope/layers: one name for shared code', () => {
  it('rejects a relative path into src/shared from main, the sandbox, a bench or an e2e spec, naming the alias', async () => {
    for (const [file, spec] of [
      ['src/main/core/data/bad.ts', '../../../shared/domain/amount'],
      ['sandbox/api/bad.ts', '../../src/shared/domain/amount'],
      ['bench/bad.ts', '../src/shared/domain/amount'],
      ['e2e/bad.spec.ts', '../src/shared/domain/amount'],
    ]) {
      const messages = await layerMessages(
        file!,
        `import { parseAmount } from '${spec}'\nexport const x = parseAmount\n`,
      )
      expect(messages, file).toEqual([expect.stringContaining('imported as "@shared/domain/amount"')])
    }
  })

  it('allows @shared everywhere outside src/shared, and relative siblings inside it', async () => {
    expect(
      await layerMessages(
        'src/main/core/data/ok.ts',
        "import { parseAmount } from '@shared/domain/amount'\nexport const x = parseAmount\n",
      ),
    ).toEqual([])
    expect(
      await layerMessages(
        'src/shared/domain/ok.ts',
        "import { parseAmount } from './amount'\nexport const x = parseAmount\n",
      ),
    ).toEqual([])
  })
})
