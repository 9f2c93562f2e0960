import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js'
import { DebugLogger } from 'builder-util'
import { describe, expect, it, vi } from 'vitest'
import builderConfig from '../../../build/electron-builder.config'
import { bundledAnvilPath, sandboxEnv } from './sandbox-utility'

vi.mock('electron', () => import('./testing/fake-electron'))

const ROOT = resolve(import.meta.dirname, '../../..')

describe('electron-builder configuration (build/electron-builder.config.ts)', () => {
  it('loads the way electron-builder loads it and passes its schema', async () => {
    const loaded = await getConfig(ROOT, 'build/electron-builder.config.ts', null)
    await expect(validateConfiguration(loaded, new DebugLogger(false))).resolves.toBeUndefined()
    expect(loaded.appId).toBe('org.chainscope.app')
  })

  it('sets the security fuses', () => {
    expect(builderConfig.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    })
  })

  it('builds AppImage, deb, dmg and NSIS', () => {
    const targets = [builderConfig.linux, builderConfig.mac, builderConfig.win].flatMap((p) =>
      p.target.map((t) => t.target),
    )
    expect(targets.sort()).toEqual(['AppImage', 'deb', 'dmg', 'nsis'])
  })

  it('packs the app into an asar with keytar unpacked and registers chainscope:// links', () => {
    expect(builderConfig.asar).toBe(true)
    expect(builderConfig.asarUnpack).toContain('node_modules/keytar/**')
    expect(builderConfig.files).toContain('out/**/*')
    expect(builderConfig.protocols).toEqual([{ name: 'Chainscope address link', schemes: ['chainscope'] }])
  })

  it('ships the anvil binary outside the asar, at the path the app hands the sandbox', () => {
    const anvil = builderConfig.linux.extraResources[0]!
    expect(existsSync(join(ROOT, anvil.from))).toBe(true)
    expect(bundledAnvilPath('/opt/Chainscope/resources', 'linux')).toBe(join('/opt/Chainscope/resources', anvil.to))
    for (const os of ['mac', 'win'] as const) {
      const resource = builderConfig[os].extraResources[0]!
      expect(resource.to).toBe('anvil')
      expect(resource.filter).toContain(os === 'win' ? 'anvil.exe' : 'anvil')
    }
  })

  it('points the sandbox at the bundled anvil only in an installed app, and never over a user ANVIL_BIN', () => {
    const base = { resourcesPath: '/res', platform: 'linux' as const, exists: () => true }
    expect(sandboxEnv({ ...base, isPackaged: true, env: { PATH: '/bin' } })).toEqual({
      PATH: '/bin',
      ANVIL_BIN: '/res/anvil/anvil',
    })
    expect(sandboxEnv({ ...base, isPackaged: false, env: {} })).toEqual({})
    expect(sandboxEnv({ ...base, isPackaged: true, env: { ANVIL_BIN: '/mine' } })).toEqual({ ANVIL_BIN: '/mine' })
    expect(sandboxEnv({ ...base, isPackaged: true, exists: () => false, env: {} })).toEqual({})
  })

  it('runs the built main entry: package.json main is out/main/index.js', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      main: string
      dependencies: Record<string, string>
      devDependencies: Record<string, string>
    }
    expect(pkg.main).toBe('out/main/index.js')
    // Packaged apps get production dependencies only: keytar must be one.
    expect(pkg.dependencies).toHaveProperty('keytar')
    expect(pkg.devDependencies).toHaveProperty('electron')
  })
})
