import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { artifactsToJson, compileContracts } from './compile'

describe('committed contract artifacts', () => {
  it('are exactly what solc produces from the sources today (run `npm run sandbox:compile` if not)', async () => {
    const committed = readFileSync(join(import.meta.dirname, 'artifacts.json'), 'utf8')
    const fresh = artifactsToJson(await compileContracts())
    expect(fresh === committed).toBe(true)
  })

  it('hold every contract the seed deploys, for cancun, with bytecode', () => {
    const artifacts = JSON.parse(readFileSync(join(import.meta.dirname, 'artifacts.json'), 'utf8')) as {
      settings: { evmVersion: string }
      contracts: Record<string, { abi: unknown[]; bytecode: string }>
    }
    expect(artifacts.settings.evmVersion).toBe('cancun')
    expect(Object.keys(artifacts.contracts).sort()).toEqual([
      'Registry',
      'Router',
      'SandboxCollectible',
      'SandboxItems',
      'SandboxProxy',
      'SandboxToken',
      'Vault',
    ])
    for (const c of Object.values(artifacts.contracts)) {
      expect(c.bytecode).toMatch(/^0x[0-9a-f]{200,}$/)
      expect(c.abi.length).toBeGreaterThan(0)
    }
  })
})
