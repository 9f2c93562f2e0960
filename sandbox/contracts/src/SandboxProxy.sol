// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";

/// An EIP-1967 proxy: its implementation slot names an ERC-20 of the seed, so a client that
/// reads the slot (eth_getStorageAt) finds the interface behind it.
contract SandboxProxy is ERC1967Proxy {
    constructor(address implementation) ERC1967Proxy(implementation, "") {}

    /// The implementation needs no set-up call: its storage is not the proxy's to initialise.
    function _unsafeAllowUninitialized() internal pure override returns (bool) {
        return true;
    }
}
