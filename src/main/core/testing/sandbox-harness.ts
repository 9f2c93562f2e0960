import { join, resolve } from 'node:path'
import { childProcessSandboxLauncher } from '../sandbox/sandbox-process'
import type { RunningSandbox, SandboxInfo, SandboxLauncher } from '../sandbox/sandbox-launcher'
import { politeFetch } from './polite-fetch'

/**
 * Test and benchmark support: the real sandbox, spawned as a child process through core's own
 * launcher (src/main never imports sandbox/ code; it runs the CLI like the app does).
 */
export const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..')

export function tsxSandboxLauncher(args: string[] = [], extra: { liveStateDir?: string } = {}): SandboxLauncher {
  return childProcessSandboxLauncher({
    command: process.execPath,
    args: ['--import', 'tsx', join(ROOT, 'sandbox', 'cli.ts'), '--port', '0', ...args],
    cwd: ROOT,
    readyTimeoutMs: 300_000,
    liveStateDir: extra.liveStateDir,
  })
}

/** A launcher that also tells the test what the sandbox printed (its key, addresses, URLs). */
export function capturingLauncher(
  inner: SandboxLauncher,
): SandboxLauncher & { info: SandboxInfo | null; running: RunningSandbox | null } {
  const wrapper = {
    info: null as SandboxInfo | null,
    running: null as RunningSandbox | null,
    launch: async (options: Parameters<SandboxLauncher['launch']>[0]) => {
      const running = await inner.launch(options)
      wrapper.info = running.info
      wrapper.running = running
      return running
    },
  }
  return wrapper
}

/** The operator surface (only with --admin): fault switch and per-key stats. */
export function admin(info: SandboxInfo) {
  const url = (p: string): string => `${info.base_url}/__sandbox/${p}`
  return {
    faults: async (faults: Record<string, unknown>): Promise<void> => {
      const r = await fetch(url('faults'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(faults),
      })
      if (!r.ok) throw new Error(`faults: ${r.status} ${await r.text()}`)
    },
    clear: async (): Promise<void> => {
      await fetch(url('faults'), { method: 'DELETE' })
    },
    /** A movement to `to` mined now (after `after` empty blocks): the block it landed in. */
    transfer: async (body: {
      network: string
      to: string
      /** Default native. */
      kind?: 'native' | 'erc20' | 'erc721' | 'erc1155' | 'router-split'
      amount?: string
      after?: number
    }): Promise<{ block: number; hash: string }> => {
      const r = await fetch(url('transfer'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      if (!r.ok) throw new Error(`transfer: ${r.status} ${await r.text()}`)
      return (await r.json()) as { block: number; hash: string }
    },
    /** The chain's head as its RPC endpoint tells it (one eth_blockNumber, billed like any). */
    head: async (network: string): Promise<number> => {
      // Billed and limited like any client's call: a 429 is waited out as the sandbox asks.
      const r = await politeFetch(
        `${info.rpc_url}/${network}/${info.api_key}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
        },
        { what: `eth_blockNumber on ${network}` },
      )
      const body = (await r.json()) as { result?: string }
      if (!body.result) throw new Error(`eth_blockNumber on ${network}: ${JSON.stringify(body)}`)
      return Number(BigInt(body.result))
    },
    stats: async (
      key: string,
    ): Promise<{
      requests: number
      units: number
      rejected_429: number
      by_endpoint: Record<string, number>
      by_limit: Record<string, number>
    }> => {
      const body = (await (await fetch(url('stats'))).json()) as { keys: Record<string, never> }
      return body.keys[key] ?? { requests: 0, units: 0, rejected_429: 0, by_endpoint: {}, by_limit: {} }
    },
  }
}
