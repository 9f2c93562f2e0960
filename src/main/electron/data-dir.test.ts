import { describe, expect, it } from 'vitest'
import { chooseDataDir } from './data-dir'

const base = { switchValue: '', env: {}, appData: '/home/u/.config', cwd: '/work' }

describe('chooseDataDir', () => {
  it('prefers --user-data-dir, then CHAINSCOPE_DATA_DIR, then <appData>/Chainscope', () => {
    expect(chooseDataDir({ ...base, switchValue: '/tmp/e2e', env: { CHAINSCOPE_DATA_DIR: '/tmp/env' } })).toEqual({
      dir: '/tmp/e2e',
      source: 'switch',
    })
    expect(chooseDataDir({ ...base, env: { CHAINSCOPE_DATA_DIR: '/tmp/env' } })).toEqual({
      dir: '/tmp/env',
      source: 'env',
    })
    expect(chooseDataDir(base)).toEqual({ dir: '/home/u/.config/Chainscope', source: 'default' })
  })

  it('resolves relative folders against the working directory and ignores blanks', () => {
    expect(chooseDataDir({ ...base, switchValue: 'data/x' }).dir).toBe('/work/data/x')
    expect(chooseDataDir({ ...base, switchValue: '  ', env: { CHAINSCOPE_DATA_DIR: ' ' } }).source).toBe('default')
    expect(chooseDataDir({ ...base, env: { CHAINSCOPE_DATA_DIR: '/tmp/a/../b' } }).dir).toBe('/tmp/b')
  })
})
