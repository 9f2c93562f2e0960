import { checkAddress } from '@shared/domain/address'
import { networkName } from '@shared/domain/profile'

/** What the command line or a `chainscope://` link asks for. */
export interface OpenRequest {
  /** EIP-55 checksummed. */
  address: `0x${string}`
  /** Null: the renderer uses the network currently shown. */
  network: string | null
}

export type LaunchRequest =
  { kind: 'none' } | { kind: 'open'; request: OpenRequest } | { kind: 'invalid'; message: string }

export const DEEP_LINK_SCHEME = 'chainscope'
const MAX_LINK_LENGTH = 512
const USAGE =
  'Usage: chainscope <address> [--network <name>], or a link chainscope://address/<address>[?network=<name>].'

/**
 * The arguments meant for the app. A packaged app's argv is `[exe, ...args]`; run as
 * `electron <app> ...args` (`process.defaultApp`) the first non-switch argument is the app's
 * path. Switches before it (Playwright's `--inspect=0`, Chromium's) are kept: they are ignored later.
 */
export function userArgs(argv: readonly string[], defaultApp: boolean): string[] {
  const rest = argv.slice(1)
  if (!defaultApp) return rest
  const appPath = rest.findIndex((arg) => !arg.startsWith('-'))
  return appPath < 0 ? rest : [...rest.slice(0, appPath), ...rest.slice(appPath + 1)]
}

/**
 * `chainscope <address> [--network <name>]`, `--network=<name>`, or a `chainscope://` link as
 * the one positional argument. Other switches (Chromium's, Electron's, `--user-data-dir=…`) are
 * ignored; a second positional argument or a bad address or network name is an error naming it.
 */
export function parseLaunchArgs(args: readonly string[]): LaunchRequest {
  let target: string | null = null
  let network: string | null = null
  let optionsDone = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    if (!optionsDone && arg === '--') {
      optionsDone = true
      continue
    }
    if (!optionsDone && (arg === '--network' || arg.startsWith('--network='))) {
      const value = arg === '--network' ? args[++i] : arg.slice('--network='.length)
      if (value === undefined || value === '' || value.startsWith('-'))
        return invalid(`--network needs a network name. ${USAGE}`)
      network = value
      continue
    }
    if (!optionsDone && arg.startsWith('-')) continue
    if (target !== null) return invalid(`Unexpected extra argument ${quote(arg)}. ${USAGE}`)
    target = arg
  }
  if (target === null)
    return network === null ? { kind: 'none' } : invalid(`--network needs an address to open. ${USAGE}`)
  if (target.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`)) {
    const link = parseDeepLink(target)
    if (link.kind !== 'open' || network === null) return link
    return withNetwork(link.request.address, network)
  }
  return withNetwork(target, network)
}

/** `chainscope://address/<address>` with an optional `?network=<name>`. */
export function parseDeepLink(link: string): LaunchRequest {
  if (typeof link !== 'string' || link.length > MAX_LINK_LENGTH)
    return invalid(`That chainscope:// link is longer than ${MAX_LINK_LENGTH} characters.`)
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return invalid(`${quote(link)} is not a valid link. ${USAGE}`)
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:`)
    return invalid(`Only chainscope:// links open in Chainscope, not ${quote(url.protocol)}.`)
  if (url.host !== 'address' || url.username !== '' || url.password !== '' || url.port !== '') {
    return invalid(`Chainscope links look like chainscope://address/0x…; ${quote(link)} does not.`)
  }
  const parts = url.pathname.split('/').filter((p) => p !== '')
  if (parts.length !== 1)
    return invalid(`A chainscope://address/ link names exactly one address; ${quote(link)} does not.`)
  for (const key of url.searchParams.keys()) {
    if (key !== 'network') return invalid(`Unknown link parameter ${quote(key)}: only "network" is understood.`)
  }
  const network = url.searchParams.get('network')
  return withNetwork(parts[0] ?? '', network)
}

function withNetwork(addressText: string, network: string | null): LaunchRequest {
  const address = checkAddress(addressText)
  if (!address.ok) return invalid(`${quote(addressText)} is not an address: ${address.message}`)
  if (network !== null) {
    const name = networkName.safeParse(network)
    if (!name.success)
      return invalid(`${quote(network)} is not a network name: ${name.error.issues[0]?.message ?? 'invalid'}.`)
  }
  return { kind: 'open', request: { address: address.address, network } }
}

function invalid(message: string): LaunchRequest {
  return { kind: 'invalid', message }
}

/** Quoted and cut short: arguments come from anyone and are shown to the user. */
function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}…` : text)
}
