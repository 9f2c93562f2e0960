/**
 * The chain's event topics, written once for every part that reads logs (the app's watch check,
 * revalidation and approval scan, the sandbox's indexer, the benches' simulated service).
 *
 * Token transfers: topic 0 of ERC-20/721 `Transfer(address,address,
 * uint256)` and ERC-1155 `TransferSingle(address,address,address,uint256,uint256)` and
 * `TransferBatch(address,address,address,uint256[],uint256[])`, keccak-256 of each signature.
 */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
export const TRANSFER_SINGLE_TOPIC = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'
export const TRANSFER_BATCH_TOPIC = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb'

/**
 * Token approvals as the chain records them: topic 0 of ERC-20/721 `Approval(address,address,
 * uint256)` (the same signature for both; ERC-721 indexes the third argument, so its log has
 * four topics) and ERC-721/1155 `ApprovalForAll(address,address,bool)`, keccak-256 of each
 * signature. Topic 1 of both is the owner, which is how a scan asks for one address's grants.
 */
export const APPROVAL_TOPIC = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
export const APPROVAL_FOR_ALL_TOPIC = '0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31'

/** An address as a 32-byte topic (left-padded, lowercase), as indexed event arguments carry it. */
export const addressTopic = (address: string): string => `0x${'0'.repeat(24)}${address.slice(2).toLowerCase()}`

/** The address a 32-byte topic carries, lowercase, or null when it is not one. */
export const topicAddress = (topic: string | undefined): string | null =>
  topic && /^0x0{24}[0-9a-fA-F]{40}$/.test(topic) ? `0x${topic.slice(26).toLowerCase()}` : null
