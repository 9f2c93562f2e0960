import { createECDH, createHmac, pbkdf2Sync } from 'node:crypto'
import { getAddress, keccak256, type Address } from 'viem'

/**
 * BIP-39/BIP-32 address derivation (m/44'/60'/0'/0/i) on Node's native secp256k1. Why not
 * viem's HDKey: it does the curve arithmetic in JavaScript, about a second for the 24 dev
 * accounts on a loaded machine, and every sandbox start derives them to compute its cache key.
 * seed/hd.test.ts checks it against viem.
 */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const HARDENED = 0x80000000

interface Node {
  key: Buffer
  chainCode: Buffer
}

const toBig = (b: Buffer): bigint => BigInt(`0x${b.toString('hex')}`)
const toKey = (n: bigint): Buffer => Buffer.from(n.toString(16).padStart(64, '0'), 'hex')

function publicKey(privateKey: Buffer, format: 'compressed' | 'uncompressed'): Buffer {
  const ecdh = createECDH('secp256k1')
  ecdh.setPrivateKey(privateKey)
  return ecdh.getPublicKey(null, format)
}

function child(parent: Node, index: number): Node {
  const data = Buffer.alloc(37)
  if (index >= HARDENED) parent.key.copy(data, 1)
  else publicKey(parent.key, 'compressed').copy(data, 0)
  data.writeUInt32BE(index, 33)
  const i = createHmac('sha512', parent.chainCode).update(data).digest()
  const tweak = toBig(i.subarray(0, 32))
  const key = (tweak + toBig(parent.key)) % N
  // Invalid for 1 in 2^127 indexes; BIP-32 says skip to the next, which never happens here.
  if (tweak >= N || key === 0n) throw new Error(`BIP-32: index ${index} gives an invalid key`)
  return { key: toKey(key), chainCode: i.subarray(32) }
}

export function deriveAddresses(mnemonic: string, count: number): Address[] {
  const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512')
  const master = createHmac('sha512', 'Bitcoin seed').update(seed).digest()
  let node: Node = { key: master.subarray(0, 32), chainCode: master.subarray(32) }
  for (const index of [44 + HARDENED, 60 + HARDENED, HARDENED, 0]) node = child(node, index)
  return Array.from({ length: count }, (_, i) => {
    const pub = publicKey(child(node, i).key, 'uncompressed')
    return getAddress(`0x${keccak256(pub.subarray(1)).slice(-40)}`)
  })
}
