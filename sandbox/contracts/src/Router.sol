// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// Makes internal calls: token fan-out, native coin fan-out and a batch of arbitrary calls
/// whose failures are recorded instead of reverting (has_error_in_internal_txs).
contract Router {
    event CallResult(uint256 indexed index, bool success);

    function multiTransfer(IERC20 token, address[] calldata recipients, uint256[] calldata amounts) external {
        require(recipients.length == amounts.length, "Router: length mismatch");
        for (uint256 i = 0; i < recipients.length; i++) {
            require(token.transferFrom(msg.sender, recipients[i], amounts[i]), "Router: transfer failed");
        }
    }

    function splitEther(address payable[] calldata recipients) external payable {
        require(recipients.length > 0, "Router: no recipients");
        uint256 share = msg.value / recipients.length;
        for (uint256 i = 0; i < recipients.length; i++) {
            (bool ok,) = recipients[i].call{value: share}("");
            require(ok, "Router: send failed");
        }
    }

    function tryAll(address[] calldata targets, bytes[] calldata data) external {
        require(targets.length == data.length, "Router: length mismatch");
        for (uint256 i = 0; i < targets.length; i++) {
            (bool ok,) = targets[i].call(data[i]);
            emit CallResult(i, ok);
        }
    }
}
