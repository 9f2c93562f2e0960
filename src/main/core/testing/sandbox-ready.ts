/**
 * A sandbox's ready line (sandbox/README.md) for stand-in sandboxes: small scripts that speak the
 * start-up protocol without the chains. Test support only.
 */
export const SANDBOX_READY = {
  base_url: 'http://127.0.0.1:1',
  rpc_url: 'http://127.0.0.1:1/rpc',
  networks: ['alpha', 'beta'],
  api_key: 'sbx_0123456789abcdef',
  demo_addresses: { alpha: { whale: `0x${'1'.repeat(40)}` } },
}
