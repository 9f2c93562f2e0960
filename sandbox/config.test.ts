import { describe, expect, it } from 'vitest'
import { parseOptions, UsageError } from './config'
import { DEFAULT_MODES } from './api/provider-modes'

describe('parseOptions', () => {
  it('has the documented defaults', () => {
    const o = parseOptions([])
    expect(o).toMatchObject({
      port: 0,
      rate: 50,
      burst: 5,
      quota: 1000,
      networks: ['alpha', 'beta'],
      blockTimeS: 2,
      admin: false,
      seedTxs: 2600,
      liveStateDir: null,
      fresh: false,
      saveEveryS: 15,
    })
    expect(o.apiKey).toMatch(/^sbx_[0-9a-f]{32}$/)
    expect(parseOptions([]).apiKey).not.toBe(o.apiKey)
    if (!process.env.SANDBOX_STATE_DIR) expect(o.stateDir).toMatch(/sandbox[/\\]\.state$/)
  })

  it('reads every flag', () => {
    const o = parseOptions([
      '--port',
      '8545',
      '--rate',
      '2.5',
      '--burst',
      '9',
      '--quota',
      '3',
      '--api-key',
      'k_1.x~y-z',
      '--networks',
      'main, test-2',
      '--block-time',
      '0',
      '--admin',
      '--no-batch',
      '--plain-errors',
      '--replay',
      '/tmp/r',
      '--state-dir',
      '/tmp/x',
      '--seed-txs',
      '60',
      '--billing',
      'call-plus-batch',
      '--batch-cap',
      '50',
      '--batch-refusal',
      'http-413',
      '--log-cap',
      '1000',
      '--log-dialect',
      'infura',
      '--no-finalized',
      '--quota-402',
      '--item-errors',
      '10',
      '--live-state',
      '/tmp/live',
      '--fresh',
      '--save-every',
      '2.5',
      '--traces',
      'trace_transaction',
    ])
    expect(o).toEqual({
      port: 8545,
      rate: 2.5,
      burst: 9,
      quota: 3,
      apiKey: 'k_1.x~y-z',
      networks: ['main', 'test-2'],
      blockTimeS: 0,
      admin: true,
      noBatch: true,
      stateDir: '/tmp/x',
      seedTxs: 60,
      replay: '/tmp/r',
      liveStateDir: '/tmp/live',
      fresh: true,
      saveEveryS: 2.5,
      plainErrors: true,
      modes: {
        billing: 'call-plus-batch',
        batchCap: 50,
        batchRefusal: 'http-413',
        logCap: 1000,
        logDialect: 'infura',
        noFinalized: true,
        quota402: true,
        itemErrorEvery: 10,
        traces: 'trace_transaction',
      },
    })
    expect(parseOptions([]).modes).toEqual(DEFAULT_MODES)
  })

  it.each([
    [['--networks', 'alpha'], /exactly two/],
    [['--networks', 'a,b,c'], /exactly two/],
    [['--networks', 'Alpha,beta'], /"Alpha"/],
    [['--networks', 'same,same'], /different/],
    [['--save-every', '0'], /--save-every must be seconds between 0.1 and 3600/],
    [['--fresh'], /--fresh forgets the chains saved by --live-state DIR, so it needs --live-state/],
    [['--rate', '0'], /--rate/],
    [['--rate', ''], /--rate/],
    [['--burst', '1.5'], /--burst/],
    [['--quota', '-1'], /--quota/],
    [['--port', 'x'], /--port/],
    [['--traces', 'parity'], /--traces must be one of callTracer, trace_transaction, none/],
    [['--port', '70000'], /--port/],
    [['--block-time', '-1'], /--block-time/],
    [['--api-key', 'a/b'], /--api-key/],
    [['--api-key', ''], /--api-key/],
    [['--seed-txs', '5'], /--seed-txs/],
    [['--billing', 'per-byte'], /--billing must be one of request, call, call-plus-batch/],
    [['--batch-cap', '0'], /--batch-cap/],
    [['--batch-cap', '101'], /--batch-cap/],
    [['--batch-refusal', 'teapot'], /--batch-refusal/],
    [['--log-cap', '0'], /--log-cap/],
    [['--log-dialect', 'x'], /--log-dialect/],
    [['--item-errors', '1'], /--item-errors/],
    [['--bogus'], /bogus/],
    [['positional'], /positional/i],
  ])('rejects %j', (args, message) => {
    expect(() => parseOptions(args)).toThrow(UsageError)
    expect(() => parseOptions(args)).toThrow(message)
  })
})
