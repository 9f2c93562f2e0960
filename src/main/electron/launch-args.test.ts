import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseDeepLink, parseLaunchArgs, userArgs } from './launch-args'

const ADDR = '0x52908400098527886E0F7030069857D2E4169EE7'
const LOWER = ADDR.toLowerCase()

describe('userArgs', () => {
  it('drops the executable of a packaged app', () => {
    expect(userArgs(['/opt/Chainscope/chainscope', LOWER, '--network', 'alpha'], false)).toEqual([
      LOWER,
      '--network',
      'alpha',
    ])
  })

  it('drops the app path when run as `electron <app>`, keeping switches before it', () => {
    expect(userArgs(['/usr/bin/electron', '.', LOWER], true)).toEqual([LOWER])
    // Playwright's _electron.launch puts its own switches first.
    expect(
      userArgs(['/e/electron', '--inspect=0', '--remote-debugging-port=0', '/repo', '--user-data-dir=/tmp/d'], true),
    ).toEqual(['--inspect=0', '--remote-debugging-port=0', '--user-data-dir=/tmp/d'])
  })
})

describe('parseLaunchArgs', () => {
  it('opens an address, checksummed, on the shown network', () => {
    expect(parseLaunchArgs([LOWER])).toEqual({ kind: 'open', request: { address: ADDR, network: null } })
  })

  it('takes --network in both spellings, before or after the address', () => {
    const want = { kind: 'open', request: { address: ADDR, network: 'beta' } }
    expect(parseLaunchArgs([LOWER, '--network', 'beta'])).toEqual(want)
    expect(parseLaunchArgs(['--network=beta', LOWER])).toEqual(want)
    expect(parseLaunchArgs(['--network', 'beta', '--', LOWER])).toEqual(want)
  })

  it('ignores Chromium, Electron and test switches', () => {
    expect(parseLaunchArgs(['--inspect=0', '--user-data-dir=/tmp/x', '--no-sandbox', '-psn_0_123', LOWER])).toEqual({
      kind: 'open',
      request: { address: ADDR, network: null },
    })
    expect(parseLaunchArgs(['--inspect=0', '--enable-logging'])).toEqual({ kind: 'none' })
    expect(parseLaunchArgs([])).toEqual({ kind: 'none' })
  })

  it('accepts a chainscope:// link as the argument (how the OS passes links on Windows and Linux)', () => {
    expect(parseLaunchArgs([`chainscope://address/${LOWER}?network=alpha`])).toEqual({
      kind: 'open',
      request: { address: ADDR, network: 'alpha' },
    })
    expect(parseLaunchArgs([`chainscope://address/${LOWER}`, '--network', 'beta'])).toEqual({
      kind: 'open',
      request: { address: ADDR, network: 'beta' },
    })
  })

  it('names what is wrong', () => {
    const message = (args: string[]): string => {
      const r = parseLaunchArgs(args)
      if (r.kind !== 'invalid') throw new Error(`expected invalid, got ${JSON.stringify(r)}`)
      return r.message
    }
    expect(message(['0x1234'])).toContain('40 hex characters after 0x; this one has 4')
    expect(message(['0x52908400098527886E0F7030069857D2E4169Ee7'])).toContain('checksum')
    expect(message(['hello'])).toContain('starts with 0x')
    expect(message([LOWER, '--network'])).toContain('--network needs a network name')
    expect(message([LOWER, '--network', 'Main Net'])).toContain('not a network name')
    expect(message(['--network', 'alpha'])).toContain('needs an address')
    expect(message([LOWER, LOWER])).toContain('Unexpected extra argument')
  })

  it('never throws and never opens anything but a valid address (any input)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 60 }), { maxLength: 6 }), (args) => {
        const result = parseLaunchArgs(args)
        if (result.kind === 'open') expect(result.request.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
      }),
    )
  })
})

describe('parseDeepLink', () => {
  it('opens chainscope://address/<addr>, with or without a network and a trailing slash', () => {
    expect(parseDeepLink(`chainscope://address/${LOWER}`)).toEqual({
      kind: 'open',
      request: { address: ADDR, network: null },
    })
    expect(parseDeepLink(`chainscope://address/${ADDR}/?network=beta`)).toEqual({
      kind: 'open',
      request: { address: ADDR, network: 'beta' },
    })
    expect(parseDeepLink(`CHAINSCOPE://address/${LOWER}`)).toMatchObject({ kind: 'open' })
  })

  it('refuses anything else, saying why', () => {
    const bad = [
      `https://address/${LOWER}`,
      `chainscope://tx/${LOWER}`,
      `chainscope://user@address/${LOWER}`,
      `chainscope://address/${LOWER}/extra`,
      'chainscope://address/',
      `chainscope://address/${LOWER}?network=alpha&cmd=rm`,
      `chainscope://address/${LOWER}?network=../../x`,
      `chainscope://address/${LOWER}%00`,
      `chainscope://address/${'a'.repeat(600)}`,
      'not a link',
    ]
    for (const link of bad) {
      const result = parseDeepLink(link)
      expect(result.kind, link).toBe('invalid')
      if (result.kind === 'invalid') expect(result.message.length, link).toBeGreaterThan(10)
    }
  })

  it('never throws on any string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 700 }), (text) => {
        expect(['none', 'open', 'invalid']).toContain(parseDeepLink(`chainscope://${text}`).kind)
        expect(['none', 'open', 'invalid']).toContain(parseDeepLink(text).kind)
      }),
    )
  })
})
