// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// An ERC-721 collection; the owner mints ids on demand.
contract SandboxCollectible is ERC721, Ownable {
    uint256 public totalSupply;

    constructor(string memory name_, string memory symbol_) ERC721(name_, symbol_) Ownable(msg.sender) {}

    function mint(address to, uint256 tokenId) external onlyOwner {
        totalSupply += 1;
        _safeMint(to, tokenId);
    }

    function burn(uint256 tokenId) external {
        _checkAuthorized(_ownerOf(tokenId), msg.sender, tokenId);
        totalSupply -= 1;
        _burn(tokenId);
    }

    function _baseURI() internal pure override returns (string memory) {
        return "sandbox://collectible/";
    }
}
