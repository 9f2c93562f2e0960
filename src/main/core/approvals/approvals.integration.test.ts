import { readdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { decodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { approvalsAbi } from '@shared/domain/approvals'
import type { SandboxInfo, SandboxLauncher } from '../sandbox/sandbox-launcher'
import { admin, capturingLauncher, tsxSandboxLauncher } from '../testing/sandbox-harness'
import { testCore } from '../testing/test-core'

/**
 * Approvals against the real sandbox (its seed has the busy address approve the Router for
 * every ERC-20 without limit early on, and the holder grant one of each kind last), with its
 * RPC endpoint behind a recording proxy that can fail log reads on demand. Two providers: the
 * proxy capping eth_getLogs itself in a real provider's words, and the sandbox playing a
 * provider with its own log cap (HTTP 413) and per-call billing.
 */
interface Mode {
  cap: number
  /** The proxy refuses ranges over `cap` itself; else the sandbox does (`args`). */
  proxyRefuses: boolean
  args: string[]
}
const MODES: [string, Mode][] = [
  ['a provider capping log ranges at 100 blocks (max block range)', { cap: 100, proxyRefuses: true, args: [] }],
  [
    "the sandbox's own 60-block log cap (HTTP 413), billing per call plus one per batch",
    {
      cap: 60,
      proxyRefuses: false,
      args: ['--log-cap', '60', '--log-dialect', 'http-413', '--billing', 'call-plus-batch'],
    },
  ],
]

interface Provider {
  server: Server
  url: string
  /** Every eth_getLogs range asked, and whether it was refused for its size. */
  asked: { from: number; to: number; refused: boolean }[]
  /** Log reads from this many on answer HTTP 500 (null: never). */
  failFrom: number | null
}

async function cappedProvider(target: string, mode: Mode): Promise<Provider> {
  const p: Provider = { server: createServer(), url: '', asked: [], failFrom: null }
  p.server.on('request', (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { id: number; method: string; params: unknown[] }
        if (!Array.isArray(body) && body.method === 'eth_getLogs') {
          const f = body.params[0] as { fromBlock: string; toBlock: string }
          const from = Number(f.fromBlock)
          const to = Number(f.toBlock)
          const refused = to - from + 1 > mode.cap
          if (p.failFrom !== null && p.asked.length >= p.failFrom) {
            res.writeHead(500).end('upstream failed')
            return
          }
          p.asked.push({ from, to, refused })
          if (refused && mode.proxyRefuses) {
            res.writeHead(200, { 'content-type': 'application/json' })
            res.end(
              JSON.stringify({
                jsonrpc: '2.0',
                id: body.id,
                error: { code: -32602, message: `query exceeds max block range ${mode.cap}` },
              }),
            )
            return
          }
        }
        const upstream = await fetch(`${target}${req.url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
        })
        res.writeHead(upstream.status, { 'content-type': 'application/json' })
        res.end(Buffer.from(await upstream.arrayBuffer()))
      })()
    })
  })
  await new Promise<void>((resolve) => p.server.listen(0, '127.0.0.1', resolve))
  p.url = `http://127.0.0.1:${(p.server.address() as AddressInfo).port}`
  return p
}

describe.each(MODES)('approvals against %s', (_name, mode) => {
  let rig: Awaited<ReturnType<typeof testCore>>
  let info: SandboxInfo
  let provider: Provider
  const call: (typeof rig)['call'] = (name, input) => rig.call(name, input)
  /** What the sandbox counted, in its billing unit. */
  const units = async (): Promise<number> => (await admin(info).stats(info.api_key)).units

  beforeAll(async () => {
    const inner = capturingLauncher(
      tsxSandboxLauncher(['--admin', '--block-time', '0', '--rate', '1000', '--burst', '1000', ...mode.args]),
    )
    const launcher: SandboxLauncher = {
      launch: async (options) => {
        const running = await inner.launch(options)
        provider = await cappedProvider(running.info.rpc_url, mode)
        return { ...running, info: { ...running.info, rpc_url: provider.url } }
      },
    }
    rig = await testCore(launcher)
    await call('profiles.activate', { id: 'sandbox' })
    await call('data.balances', { network: 'alpha', address: '0x0000000000000000000000000000000000000001' })
    info = inner.info!
  }, 600_000)

  afterAll(async () => {
    await rig?.dispose()
    await new Promise((resolve) => provider?.server.close(resolve))
  })

  describe.each(['alpha', 'beta'])('approvals of the busy address on %s', (network) => {
    const whale = () => info.demo_addresses[network]!.whale!
    const router = () => info.demo_addresses[network]!.contract!.toLowerCase()

    it('finds approvals in the loaded page and reads their state in one request, as the sandbox counted', async () => {
      await call('data.transactions', { network, address: whale() })
      await call('data.balances', { network, address: whale() })
      const before = await units()
      const view = await call('approvals.view', { network, address: whale() })
      expect(await units()).toBe(before + view.cost.units)
      expect(view.cost.requests).toBe(1)
      expect(view.transactionsRead).toBeGreaterThan(0)
      expect(view.stateError).toBeNull()
      for (const row of view.rows) expect(row.status).not.toBe('unknown')
    })

    it("finds the holder's seeded approvals in its first page, each kind with its state", async () => {
      const holder = info.demo_addresses[network]!.holder!
      await call('data.transactions', { network, address: holder })
      await call('data.balances', { network, address: holder })
      // The page is digested for this tab as it is written (in the background), before any opening.
      // The deadline is a hang guard: a busy machine takes more than waitFor's 1 s default to write.
      const folder = join(rig.dir, 'snapshots', 'sandbox', network, holder.toLowerCase())
      await vi.waitFor(
        () =>
          expect(readdirSync(join(folder, 'digests'))).toEqual(readdirSync(folder).filter((n) => n.startsWith('tx-'))),
        { timeout: 20_000, interval: 50 },
      )
      const view = await call('approvals.view', { network, address: holder })
      const brief = view.rows.map((r) => ({
        kind: r.kind,
        symbol: r.token.symbol,
        status: r.status,
        unlimited: r.unlimited,
        allowance: r.allowance,
        tokenId: r.tokenId,
        router: r.spender.address === router(),
      }))
      const unit = (symbol: string) => 10n ** BigInt(view.rows.find((r) => r.token.symbol === symbol)!.token.decimals!)
      expect(brief).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: 'erc20', symbol: 'SGOV', status: 'live', unlimited: true, router: true }),
          // 100 granted, 40 moved by the Router: 60 left.
          expect.objectContaining({
            kind: 'erc20',
            symbol: 'SDL',
            status: 'live',
            allowance: String(60n * unit('SDL')),
          }),
          expect.objectContaining({ kind: 'operator', symbol: 'SPUNK', status: 'live', router: true }),
          expect.objectContaining({ kind: 'operator', symbol: 'SITEM', status: 'live', router: true }),
          expect.objectContaining({ kind: 'nft', symbol: 'SPUNK', status: 'live', tokenId: '3' }),
          expect.objectContaining({ kind: 'erc20', symbol: 'SBTC', status: 'revoked', allowance: '0' }),
        ]),
      )
      const sdl = view.rows.find((r) => r.token.symbol === 'SDL')!
      expect(BigInt(sdl.atRisk!)).toBe(60n * unit('SDL'))
      const nft = view.rows.find((r) => r.kind === 'nft')!
      const d = decodeFunctionData({ abi: approvalsAbi, data: nft.revoke!.data as `0x${string}` })
      expect(d).toMatchObject({ functionName: 'approve', args: ['0x0000000000000000000000000000000000000000', 3n] })
      const revoked = view.rows.find((r) => r.status === 'revoked')!
      expect(revoked.revoke).toBeNull()
    })

    it('offers the scan with its cost, stays within the log cap, resumes after a failure and finds the unlimited Router approvals', async () => {
      const first = await call('approvals.view', { network, address: whale() })
      expect(first.scan.scannedTo).toBeNull()
      expect(first.scan.remainingCalls).toBeGreaterThanOrEqual(1)
      provider.asked = []
      // A provider failing midway: what was read stays read.
      provider.failFrom = 3
      await expect(call('approvals.scan', { network, address: whale() })).rejects.toThrow()
      provider.failFrom = null
      const stopped = await call('approvals.view', { network, address: whale() })
      expect(stopped.scan.scannedTo).not.toBeNull()
      expect(stopped.scan.logCap).toBe(mode.cap)
      const resumeFrom = stopped.scan.scannedTo! + 1
      const planned = stopped.scan.remainingCalls
      const askedBefore = provider.asked.length
      const unitsBefore = await units()
      const view = await call('approvals.scan', { network, address: whale() })
      const resumed = provider.asked.slice(askedBefore)
      // Only the first range of all, asked before the cap was known, was refused.
      expect(provider.asked.filter((a) => a.refused)).toEqual([provider.asked[0]])
      expect(resumed.every((a) => a.to - a.from + 1 <= mode.cap && !a.refused)).toBe(true)
      expect(resumed[0]!.from).toBe(resumeFrom)
      expect(resumed).toHaveLength(planned)
      // Counted as sent = counted by the sandbox: the head, the log windows, the state call.
      expect(await units()).toBe(unitsBefore + view.cost.units)
      expect(view.cost.requests).toBe(planned + 2)
      expect(view.cost.units).toBe(stopped.scan.remainingUnits)
      expect(view.scan.scannedTo).toBe(view.scan.head)
      const routerRows = view.rows.filter((r) => r.spender.address === router() && r.kind === 'erc20')
      // The seed has the busy address approve the Router without limit for each of its five ERC-20s.
      expect(routerRows.length).toBe(5)
      for (const row of routerRows) {
        expect(row).toMatchObject({ status: 'live', unlimited: true })
        expect(row.granted?.tx).toMatch(/^0x[0-9a-f]{64}$/)
        expect(BigInt(row.atRisk!)).toBe(BigInt(row.balance!))
        const d = decodeFunctionData({ abi: approvalsAbi, data: row.revoke!.data as `0x${string}` })
        expect(d.functionName).toBe('approve')
        expect([(d.args![0] as string).toLowerCase(), d.args![1]]).toEqual([router(), 0n])
        expect(row.revoke!.to).toBe(row.token.address)
      }
    })
  })
})
