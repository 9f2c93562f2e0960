import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * Compiles the seed's contracts with solc-js and OpenZeppelin. Only the script that writes
 * artifacts.json (and the test that checks it is current) runs this: the sandbox itself loads
 * the committed artifacts, so neither `solc` nor the sources are needed at run time.
 */

export interface ContractArtifact {
  abi: readonly unknown[]
  bytecode: `0x${string}`
}

export interface Artifacts {
  compiler: string
  settings: Record<string, unknown>
  contracts: Record<string, ContractArtifact>
}

export const SOURCE_DIR = join(import.meta.dirname, 'src')

// cancun: OpenZeppelin 5.x uses mcopy. bytecodeHash none: the bytecode stays the same when only
// comments or file paths change, so the recompile test fails only on real changes.
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  metadata: { bytecodeHash: 'none' },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>
}

export async function compileContracts(): Promise<Artifacts> {
  const require = createRequire(import.meta.url)
  const solc = (await import('solc')).default as {
    version(): string
    compile(input: string, callbacks: unknown): string
  }
  const ozRoot = dirname(require.resolve('@openzeppelin/contracts/package.json'))
  const sources: Record<string, { content: string }> = {}
  for (const file of readdirSync(SOURCE_DIR)
    .filter((f) => f.endsWith('.sol'))
    .sort()) {
    sources[file] = { content: readFileSync(join(SOURCE_DIR, file), 'utf8') }
  }
  const findImports = (path: string): { contents: string } | { error: string } => {
    const prefix = '@openzeppelin/contracts/'
    if (!path.startsWith(prefix)) return { error: `import outside OpenZeppelin: ${path}` }
    try {
      return { contents: readFileSync(join(ozRoot, path.slice(prefix.length)), 'utf8') }
    } catch {
      return { error: `not found: ${path}` }
    }
  }
  const output = JSON.parse(
    solc.compile(JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS }), { import: findImports }),
  ) as SolcOutput
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`)
  const contracts: Record<string, ContractArtifact> = {}
  for (const file of Object.keys(sources)) {
    // Only the contract named after its file: the seed deploys those, not OpenZeppelin's bases.
    const name = file.replace(/\.sol$/, '')
    const compiled = output.contracts[file]?.[name]
    if (!compiled) throw new Error(`solc produced no contract ${name} in ${file}`)
    contracts[name] = { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` }
  }
  return { compiler: solc.version(), settings: SETTINGS, contracts }
}

/** Stable text so the committed file diffs cleanly. */
export function artifactsToJson(artifacts: Artifacts): string {
  return `${JSON.stringify(artifacts, null, 1)}\n`
}
