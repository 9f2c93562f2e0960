/**
 * The last seeded block of each chain with the default seed (2,600 busy-address transactions).
 * Seeding is deterministic (fixed mnemonic, nonces, fees, base fees and timestamps), so these
 * hashes repeat on every machine; a test checks it. Changing the seed plan, the contracts or
 * the anvil version changes them: reseed (`npm run sandbox:seed`) and copy the new values from
 * sandbox/.state/<chain id>-<key>/manifest.json (head, headHash).
 */
export const SEED_FINGERPRINT: Record<number, { head: number; headHash: string }> = {
  7001: { head: 560, headHash: '0x71eb17ed78a719a441c1cb70a86be8d89f98f56ddaf979c2c45984f1d09b0f3b' },
  7002: { head: 563, headHash: '0x59692fa80e8407c505ba9e6f8d3abf31e6a96e42d9e4afdf3f4bcda105f4e675' },
}
