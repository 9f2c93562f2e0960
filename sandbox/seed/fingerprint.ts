/**
 * The last seeded block of each chain with the default seed (2,600 busy-address transactions).
 * Seeding is deterministic (fixed mnemonic, nonces, fees, base fees and timestamps), so these
 * hashes repeat on every machine; a test checks it. Changing the seed plan, the contracts or
 * the anvil version changes them: reseed (`npm run sandbox:seed`) and copy the new values from
 * sandbox/.state/<chain id>-<key>/manifest.json (head, headHash).
 */
export const SEED_FINGERPRINT: Record<number, { head: number; headHash: string }> = {
  7001: { head: 558, headHash: '0x7e1caa2769064af39196e3e4743e665b499d09e5f370b5e7a1c1c72929759cb1' },
  7002: { head: 561, headHash: '0xfa94826637a238e6d799b80be74984fabe20efc4ea88282406b599d789eead70' },
}
