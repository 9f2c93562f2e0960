import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { MULTICALL3_ADDRESS } from '@shared/domain/contracts'
import type { RpcClient } from './rpc-client'

/**
 * Multicall3's creation code as viem ships it (viem deploys it itself for its deployless
 * multicall, but does not export it): read from the installed package rather than copied here.
 */
export function multicall3CreationCode(): string {
  const require = createRequire(import.meta.url)
  let dir = dirname(require.resolve('viem'))
  while (!dir.endsWith('viem') && dirname(dir) !== dir) dir = dirname(dir)
  const text = readFileSync(join(dir, '_esm', 'constants', 'contracts.js'), 'utf8')
  const code = /multicall3Bytecode = '(0x[0-9a-f]+)'/.exec(text)?.[1]
  if (!code) throw new Error(`no Multicall3 bytecode in ${dir}`)
  return code
}

/**
 * Puts Multicall3 at its canonical address, as most public chains have it: its creation code
 * run by an `eth_call` gives the runtime code, which `anvil_setCode` installs. No transaction
 * and no block: the seeded history, its block hashes and the cached state stay exactly as
 * they were, so this runs at every start, after the chain is loaded.
 */
export async function installMulticall3(rpc: RpcClient): Promise<void> {
  const runtime = await rpc.call<string>('eth_call', [{ data: multicall3CreationCode() }, 'latest'])
  if (typeof runtime !== 'string' || runtime.length <= 2)
    throw new Error('Multicall3 creation code returned no runtime code')
  await rpc.call('anvil_setCode', [MULTICALL3_ADDRESS, runtime])
}
