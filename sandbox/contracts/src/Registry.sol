// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A small contract the busy address deploys itself (its contract_creation transaction).
contract Registry {
    address public immutable owner;
    mapping(address => string) public noteOf;

    event NoteSet(address indexed account, string note);

    constructor() {
        owner = msg.sender;
    }

    function setNote(string calldata note) external {
        require(bytes(note).length <= 64, "Registry: note too long");
        noteOf[msg.sender] = note;
        emit NoteSet(msg.sender, note);
    }
}
