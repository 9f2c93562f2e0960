import type { CoreOptions } from '../app-core'
import { Redactor } from '../util/logger'

/**
 * A core's options in a test: the web host's, on `dataDir`, with a silent log and no keychain
 * (it refuses, as on a machine without a Secret Service). What a test varies goes in `extra`;
 * `keychain: undefined` there gives the real keychain (keytar), as the app has.
 * Test support only.
 */
export function testCoreOptions(dataDir: string, extra: Partial<CoreOptions> = {}): CoreOptions {
  return {
    host: 'web',
    version: '0.0.0-test',
    platform: process.platform,
    dataDir,
    log: { info() {}, warn() {}, error() {} },
    redactor: new Redactor(),
    keychain: () => Promise.reject(new Error('no keychain in this test')),
    ...extra,
  }
}
