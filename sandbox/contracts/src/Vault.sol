// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Holds native coin per depositor. Withdrawing more than deposited reverts with a reason,
/// which gives the seed its failed transactions with a readable revert_reason.
contract Vault {
    mapping(address => uint256) public balanceOf;

    event Deposited(address indexed account, uint256 amount);
    event Withdrawn(address indexed account, uint256 amount);

    function deposit() external payable {
        require(msg.value > 0, "Vault: nothing to deposit");
        balanceOf[msg.sender] += msg.value;
        emit Deposited(msg.sender, msg.value);
    }

    function withdraw(uint256 amount) external {
        require(amount <= balanceOf[msg.sender], "Vault: insufficient balance");
        balanceOf[msg.sender] -= amount;
        (bool ok,) = msg.sender.call{value: amount}("");
        require(ok, "Vault: transfer failed");
        emit Withdrawn(msg.sender, amount);
    }
}
