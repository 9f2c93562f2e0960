import { parseAbi, type AbiFunction } from 'viem'
import type { ContractFunction, ReadContractView } from '@shared/bridge/entity-types'
import type { KnownInterface } from '@shared/bridge/entity-calls'
import { cheapestCalls } from '../service/cheapest-calls'
import type { SpendMeter } from '../service/service-types'
import { AppError } from '../util/app-error'
import type { Clock } from '../util/clock'
import { decodeResult, encodeCall, signatureOf, viewFunctions } from './abi-codec'
import type { EntityRuntime } from './entity-service'

/** Well-known interfaces offered without an ABI (proxies are read by their slots: `entities.proxy`). */
const KNOWN: Record<KnownInterface, readonly AbiFunction[]> = {
  'ERC-20': viewsOf([
    'function name() view returns (string)',
    'function symbol() view returns (string)',
    'function decimals() view returns (uint8)',
    'function totalSupply() view returns (uint256)',
    'function balanceOf(address owner) view returns (uint256)',
    'function allowance(address owner, address spender) view returns (uint256)',
  ]),
  'ERC-721': viewsOf([
    'function name() view returns (string)',
    'function symbol() view returns (string)',
    'function balanceOf(address owner) view returns (uint256)',
    'function ownerOf(uint256 tokenId) view returns (address)',
    'function tokenURI(uint256 tokenId) view returns (string)',
    'function getApproved(uint256 tokenId) view returns (address)',
    'function isApprovedForAll(address owner, address operator) view returns (bool)',
  ]),
  'ERC-1155': viewsOf([
    'function balanceOf(address account, uint256 id) view returns (uint256)',
    'function uri(uint256 id) view returns (string)',
    'function isApprovedForAll(address account, address operator) view returns (bool)',
  ]),
  Ownable: viewsOf(['function owner() view returns (address)']),
  'ERC-165': viewsOf(['function supportsInterface(bytes4 interfaceId) view returns (bool)']),
}

function viewsOf(signatures: string[]): AbiFunction[] {
  return parseAbi(signatures).filter((f): f is AbiFunction => f.type === 'function')
}

/** Where a read's functions come from: an ABI the user gave, or a well-known interface. */
export type AbiSource = { abi: string; standard?: undefined } | { standard: KnownInterface; abi?: undefined }

function functionsOf(source: AbiSource): readonly AbiFunction[] {
  return source.abi !== undefined ? viewFunctions(source.abi) : KNOWN[source.standard]
}

/** The view functions as the panel lists them (one line each, with typed inputs). */
export function listFunctions(source: AbiSource): ContractFunction[] {
  return functionsOf(source).map((f) => ({
    signature: signatureOf(f),
    name: f.name,
    inputs: f.inputs.map((p) => ({ name: p.name ?? '', type: p.type })),
  }))
}

export interface ReadContractRequest {
  network: string
  address: string
  source: AbiSource
  /** The function's signature as `listFunctions` gave it, or its name where only one has it. */
  fn: string
  args: string[]
}

/** One view function called with `eth_call` (read-only, never cached: state changes), decoded. */
export async function readContract(
  rt: EntityRuntime,
  req: ReadContractRequest,
  clock: Clock,
): Promise<ReadContractView> {
  const fns = functionsOf(req.source)
  const matches = fns.filter((f) => signatureOf(f) === req.fn || f.name === req.fn)
  if (matches.length !== 1)
    throw new AppError(
      'invalid-input',
      matches.length === 0
        ? `The ABI has no view function ${req.fn.slice(0, 120)}.`
        : `The ABI has ${matches.length} functions named ${req.fn}: pick one by its signature.`,
      { field: 'fn' },
    )
  const fn = matches[0]!
  const data = encodeCall(fn, req.args)
  const meter: SpendMeter = { requests: 0, units: 0 }
  const [item] = await cheapestCalls(
    rt.client,
    req.network,
    [{ method: 'eth_call', params: [{ to: req.address, data }, 'latest'] }],
    {
      priority: 'user',
      meter,
    },
  )
  if (!item || !item.ok)
    throw new AppError(
      'rpc',
      `${fn.name} reverted or was refused: ${item && !item.ok ? item.message.slice(0, 200) : 'no answer'}`,
      {
        ...(item && !item.ok ? { code: item.code } : {}),
      },
    )
  if (typeof item.result !== 'string') throw new AppError('protocol', `${fn.name}'s answer is not hex data.`)
  return {
    network: req.network,
    address: req.address,
    function: signatureOf(fn),
    outputs: decodeResult(fn, item.result),
    fetchedAt: new Date(clock.now()).toISOString(),
    cost: { ...meter },
  }
}
