// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title Hallmark provenance records
/// @notice One token per watermarked work; its URI is the work's metadata on IPFS (`ipfs://<cid>`).
/// @dev Everything but the counter comes from audited OpenZeppelin 5 code. Only the owner (the
/// service's minter key) mints; ownership can be handed to a new minter key with
/// `transferOwnership`. Holders transfer their tokens as with any ERC-721.
contract HallmarkProvenance is ERC721URIStorage, Ownable {
    uint256 private _minted;

    constructor(address minter) ERC721("Hallmark Provenance", "HALLMARK") Ownable(minter) {}

    /// @notice Mints the next token (ids start at 1) to `to` with token URI `uri`.
    /// @dev `_mint`, not `_safeMint`: the receiver is a wallet chosen by the service, and a
    /// receiver callback would let a contract wallet make the mint revert or re-enter.
    function mint(address to, string calldata uri) external onlyOwner returns (uint256 tokenId) {
        tokenId = ++_minted;
        _mint(to, tokenId);
        _setTokenURI(tokenId, uri);
    }

    /// @notice How many tokens were ever minted; also the id of the newest one.
    function totalMinted() external view returns (uint256) {
        return _minted;
    }
}
