import type { Abi } from 'viem'
import compiled from './artifacts.json'

/**
 * The committed compiler output (see compile.ts). Imported as JSON so the bundled
 * out/main/sandbox.js carries it and needs neither solc nor the sources at run time.
 */
export type ContractName =
  'SandboxToken' | 'SandboxCollectible' | 'SandboxItems' | 'Vault' | 'Router' | 'Registry' | 'SandboxProxy'

export interface LoadedArtifact {
  abi: Abi
  bytecode: `0x${string}`
}

export const ARTIFACTS = compiled.contracts as unknown as Record<ContractName, LoadedArtifact>

export const CONTRACT_NAMES = Object.keys(ARTIFACTS) as ContractName[]
