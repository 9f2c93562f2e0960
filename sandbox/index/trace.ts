import { decodeAbiParameters, decodeErrorResult } from 'viem'
import { ARTIFACTS, CONTRACT_NAMES } from '../contracts/artifacts'
import { artifactOfCreationCode } from './input'
import type { ContractRecord } from './types'

/** One frame of anvil's callTracer output. */
export interface CallFrame {
  type: string
  from: string
  to?: string
  input?: string
  output?: string
  error?: string
  revertReason?: string
  calls?: CallFrame[]
}

export interface TraceSummary {
  error: string | null
  revertReason: string | null
  internalError: boolean
  /** Contracts created anywhere in the call tree (successful frames only). */
  created: [string, ContractRecord][]
}

/** Reads the revert reason from the output when the tracer did not: Error(string), Panic, or a known custom error. */
export function decodeRevert(output: string | undefined): string | null {
  if (!output || output.length < 10) return null
  const selector = output.slice(0, 10).toLowerCase()
  try {
    if (selector === '0x08c379a0') return decodeAbiParameters([{ type: 'string' }], `0x${output.slice(10)}`)[0]
    if (selector === '0x4e487b71')
      return `panic 0x${decodeAbiParameters([{ type: 'uint256' }], `0x${output.slice(10)}`)[0].toString(16)}`
  } catch {
    return null
  }
  for (const name of CONTRACT_NAMES) {
    try {
      const { errorName, args } = decodeErrorResult({ abi: ARTIFACTS[name].abi, data: output as `0x${string}` })
      return `${errorName}(${(args ?? []).map(String).join(', ')})`
    } catch {
      // not this contract's error
    }
  }
  return null
}

export function summariseTrace(root: CallFrame | undefined): TraceSummary {
  const summary: TraceSummary = { error: null, revertReason: null, internalError: false, created: [] }
  if (!root) return summary
  summary.error = root.error ?? null
  if (root.error) summary.revertReason = root.revertReason ?? decodeRevert(root.output)
  const visit = (frame: CallFrame, depth: number): void => {
    if (depth > 0 && frame.error) summary.internalError = true
    if ((frame.type === 'CREATE' || frame.type === 'CREATE2') && !frame.error && frame.to) {
      const artifact = artifactOfCreationCode(frame.input ?? '')
      summary.created.push([frame.to.toLowerCase(), { name: artifact, artifact }])
    }
    for (const child of frame.calls ?? []) visit(child, depth + 1)
  }
  visit(root, 0)
  return summary
}
