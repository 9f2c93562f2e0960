/**
 * Multicall3's canonical address: the same on every chain that has it (a keyless deployment),
 * so a client asks for code there once per network to know whether it can batch calls through it.
 */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11'

/** The zero address: a mint's sender, a burn's receiver, a cleared ERC-721 approval. */
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'
