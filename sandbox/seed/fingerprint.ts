/**
 * The last seeded block of each chain with the default seed (2,600 busy-address transactions).
 * Seeding is deterministic (fixed mnemonic, nonces, fees, base fees and timestamps), so these
 * hashes repeat on every machine; a test checks it. Changing the seed plan, the contracts or
 * the anvil version changes them: reseed (`npm run sandbox:seed`) and copy the new values from
 * sandbox/.state/<chain id>-<key>/manifest.json (head, headHash).
 */
export const SEED_FINGERPRINT: Record<number, { head: number; headHash: string }> = {
  7001: { head: 561, headHash: '0x81745fa60b6f0b6edae9b04d470d2830b656b0faefc77b9d85a62c556d12e52e' },
  7002: { head: 564, headHash: '0xeb4c8af284b61617b58119c8d2434e03b348ff739fa9940a62ba8568110f18e4' },
}
