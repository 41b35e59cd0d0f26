"""Tamper evidence: ``verify`` (:mod:`.verify`), the Merkle tree (:mod:`.merkle`), digests and
inclusion proofs (:mod:`.transparency`), signed tree heads (:mod:`.signing`) and consistency proofs
(:mod:`.consistency`)."""
