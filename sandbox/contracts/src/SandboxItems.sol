// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {ERC1155Supply} from "@openzeppelin/contracts/token/ERC1155/extensions/ERC1155Supply.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// An ERC-1155 multi-token. ERC-1155 has no standard name or symbol; explorers read these
/// optional getters when present, so the sandbox's collection has them.
contract SandboxItems is ERC1155Supply, Ownable {
    string public name;
    string public symbol;

    constructor(string memory name_, string memory symbol_) ERC1155("sandbox://items/{id}.json") Ownable(msg.sender) {
        name = name_;
        symbol = symbol_;
    }

    function mint(address to, uint256 id, uint256 amount) external onlyOwner {
        _mint(to, id, amount, "");
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts) external onlyOwner {
        _mintBatch(to, ids, amounts, "");
    }
}
