/** The sandbox's ready line (one JSON line on stdout), read by main and written by the sandbox. */
export interface SandboxInfo {
  base_url: string
  rpc_url: string
  networks: string[]
  api_key: string
  demo_addresses: Record<string, Record<string, string>>
  /** How this sandbox counts (billing.ts); absent from sandboxes that count requests only. */
  billing?: string
  /** Each network's coin (symbol, decimals); absent from older sandboxes, checked where read. */
  coins?: Record<string, { symbol: string; decimals: number }>
}
