/**
 * Multicall3's canonical address: the same on every chain that has it (a keyless deployment),
 * so a client asks for code there once per network to know whether it can batch calls through it.
 */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11'
