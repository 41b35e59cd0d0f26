"""Signed tree heads and consistency proofs (issue 28, item 3), on both stores:
``key new`` (mode 0600, never overwritten), ``digest --sign`` (a head whose every field
the signature covers), ``consistency OLD NEW`` (RFC 9162 2.1.4.1 from the stored tree,
compared with the RFC's own recursive PROOF over many sizes) and ``check-consistency``
(no database; tampered proofs, heads and keys refused)."""

from __future__ import annotations

import json
import os
import random
import stat

import pytest
from backends import make_chain
from tamper import rewrite_history
from test_digest import append_more, db, run, take_digest  # noqa: F401  (db: the fixture)
from test_merkle import rfc_mth, rfc_proof

from ledger.audit import merkle
from ledger.audit.consistency import check_consistency, prove_consistency
from ledger.audit.merkle import Digest
from ledger.audit.signing import check_head, load_public_key, new_key, parse_head, sign_head
from ledger.audit.transparency import stored_root


def test_key_new_writes_a_private_key_only_its_owner_reads_and_never_overwrites(tmp_path, capsys):
    path = tmp_path / "paris.key"
    code, out, err = run(capsys, "key", "new", str(path))
    assert code == 0, err
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert (tmp_path / "paris.key.pub").read_text().startswith("-----BEGIN PUBLIC KEY-----")
    assert "PRIVATE KEY" in path.read_text()
    before = path.read_bytes()
    code, _, err = run(capsys, "key", "new", str(path))
    assert code == 2 and "never overwritten" in err and path.read_bytes() == before
    kid = out.split()[1]
    from ledger.audit.signing import key_id
    assert key_id(load_public_key(tmp_path / "paris.key.pub")) == kid


def test_digest_sign_gives_a_head_whose_every_field_the_signature_covers(db, capsys, tmp_path):
    key = tmp_path / "t.key"
    new_key(key)
    code, out, err = run(capsys, "digest", "--sign", str(key))
    assert code == 0, err
    doc = json.loads(out)
    plain = take_digest(capsys)
    assert (doc["size"], doc["root"], doc["digest"]) == (plain["size"], plain["root"], plain["digest"])
    assert doc["format"] == "ledger-signed-tree-head/1" and doc["time"].endswith("Z")
    head = parse_head(doc, "head")
    trusted = load_public_key(tmp_path / "t.key.pub")
    assert check_head(head) == [] and check_head(head, trusted) == []
    for field, value in (("size", doc["size"] + 1), ("root", "0" * 64), ("timestamp", doc["timestamp"] + 1)):
        assert check_head(parse_head({**doc, field: value}, "head"), trusted), field
    other = tmp_path / "other.key"
    new_key(other)
    assert any("not by the key given" in p for p in check_head(head, load_public_key(tmp_path / "other.key.pub")))
    # a head re-signed by another key but naming the first key's id
    forged = sign_head(head.digest, __import__("ledger.audit.signing", fromlist=["x"]).load_private_key(other))
    assert check_head(parse_head({**doc, "signature": forged.to_json()["signature"]}, "head"), trusted)
    # a key file others may read is refused before anything is read from the store
    os.chmod(key, 0o644)
    code, _, err = run(capsys, "digest", "--sign", str(key))
    assert code == 2 and "chmod 600" in err


def test_consistency_proofs_from_the_store_equal_rfc_9162_over_many_sizes(store):
    rng = random.Random(28)
    hashes: list[bytes] = []
    sizes = []
    heads = {}
    for n in range(14):
        stream = f"s/{n % 5}"
        after = (0, "0" * 64)
        prior = store.read(stream)
        if prior:
            after = (prior[-1].seq, prior[-1].hash)
        with store.transaction(stream) as tx:
            written = tx.insert(make_chain(stream, rng.choice([1, 1, 2, 3, 7, 16]), after=after))
        hashes += [bytes.fromhex(e.hash) for e in written]
        sizes.append(len(hashes))
    for size in [1, 2, 3, 4, 5] + sizes:
        if size <= len(hashes):
            heads[size] = Digest(size, stored_root(store, size).hex())
            assert heads[size].root == rfc_mth(hashes[:size]).hex()
    pairs = [(m, n) for m in heads for n in heads if m <= n]
    assert len(pairs) > 60
    for m, n in pairs:
        doc = prove_consistency(store, heads[m], heads[n])
        expected = rfc_proof(m, hashes[:n]) if m < n else []
        assert [bytes.fromhex(h) for h in doc["proof"]] == expected, (m, n)
        assert check_consistency(heads[m], heads[n], doc) == []
        assert check_consistency(Digest.parse(heads[m].short()), Digest.parse(heads[n].short()), doc) == []
        if m < n:  # the reverse order, and a proof with a hash flipped, dropped or added, all refused
            assert check_consistency(heads[n], heads[m], doc)
            for tampered in _tampered(doc["proof"]):
                assert check_consistency(heads[m], heads[n], {**doc, "proof": tampered}), (m, n, tampered)


def _tampered(proof: list[str]) -> list[list[str]]:
    out = []
    for i in range(len(proof)):
        flipped = list(proof)
        flipped[i] = format(int(proof[i][0], 16) ^ 1, "x") + proof[i][1:]
        out.append(flipped)
        out.append(proof[:i] + proof[i + 1:])
    out.append(proof + [proof[-1] if proof else "0" * 64])
    if len(proof) > 1:
        out.append(list(reversed(proof)))
    return out


def test_consistency_and_check_consistency_on_the_command_line(db, capsys, tmp_path):
    key = tmp_path / "t.key"
    new_key(key)
    old_file, new_file, proof_file = tmp_path / "old.json", tmp_path / "new.json", tmp_path / "p.json"
    code, out, _ = run(capsys, "digest", "--sign", str(key))
    old_file.write_text(out)
    append_more(db)
    code, out, _ = run(capsys, "digest", "--sign", str(key))
    new_file.write_text(out)
    old, new = json.loads(old_file.read_text()), json.loads(new_file.read_text())
    code, out, err = run(capsys, "consistency", str(old_file), str(new_file), "-o", str(proof_file))
    assert code == 0, err
    doc = json.loads(proof_file.read_text())
    assert doc["old"] == {"size": old["size"], "root": old["root"]} and len(doc["proof"]) > 0
    # plain digests (full or short) give the same proof on stdout
    code, out, _ = run(capsys, "consistency", old["digest"], Digest.parse(new["digest"]).short())
    assert code == 0 and json.loads(out) == doc

    pub = str(tmp_path / "t.key.pub")
    code, out, err = run(capsys, "check-consistency", str(old_file), str(new_file), str(proof_file), "--key", pub)
    assert code == 0, err
    assert f"log of {old['size']} event(s)" in out and "signed by key" in out and "pin" not in out
    code, out, err = run(capsys, "check-consistency", old["digest"], new["digest"], str(proof_file))
    assert code == 0, err

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**doc, "proof": _tampered(doc["proof"])[0]}))
    code, _, err = run(capsys, "check-consistency", str(old_file), str(new_file), str(bad), "--key", pub)
    assert code == 1 and "prefix" in err
    code, _, err = run(capsys, "check-consistency", str(new_file), str(old_file), str(proof_file))
    assert code == 1 and "other heads" in err
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps({**old, "timestamp": old["timestamp"] - 60_000}))
    code, _, err = run(capsys, "check-consistency", str(changed), str(new_file), str(proof_file), "--key", pub)
    assert code == 1 and "OLD: the signature does not match" in err
    other = tmp_path / "o.key"
    new_key(other)
    code, _, err = run(capsys, "check-consistency", str(old_file), str(new_file), str(proof_file),
                       "--key", str(tmp_path / "o.key.pub"))
    assert code == 1 and "not by the key given" in err
    bad.write_text(json.dumps({**doc, "proof": ["zz"]}))
    code, _, err = run(capsys, "check-consistency", str(old_file), str(new_file), str(bad))
    assert code == 2 and "PROOF.proof[0]" in err
    code, _, err = run(capsys, "check-consistency", "12:abc", str(new_file), str(proof_file))
    assert code == 2 and "OLD" in err


def test_consistency_refuses_a_head_the_store_no_longer_has(db, capsys):
    old = take_digest(capsys)
    append_more(db)
    new = take_digest(capsys)
    rewrite_history(db, "t/b1", 3, {"seat": "N", "call": "7NT"})  # the tree redone to agree
    code, _, err = run(capsys, "consistency", old["digest"], new["digest"])
    assert code == 1 and "is not a head of this store" in err
    code, _, err = run(capsys, "consistency", new["digest"], old["digest"])
    assert code == 2 and "older head first" in err
    code, _, err = run(capsys, "consistency", old["digest"], f"{new['size'] + 5}:{'a' * 64}")
    assert code == 1 and "holds" in err
    assert merkle.EMPTY_ROOT  # the empty tree: consistent with any head, with no hash
    assert check_consistency(Digest(0, merkle.EMPTY_ROOT.hex()), Digest.parse(old["digest"]),
                             {"format": "ledger-consistency-proof/1", "old": {"size": 0, "root": merkle.EMPTY_ROOT.hex()},
                              "new": {"size": old["size"], "root": old["root"]}, "proof": []}) == []


@pytest.mark.parametrize("text", ["{", "[]", '{"format": "ledger-signed-tree-head/1", "size": -1}'])
def test_a_misshapen_signed_head_is_exit_2_naming_the_argument(tmp_path, capsys, text):
    path = tmp_path / "h.json"
    path.write_text(text)
    proof = tmp_path / "p.json"
    proof.write_text("{}")
    code, _, err = run(capsys, "check-consistency", str(path), "3:" + "a" * 64, str(proof))
    assert code == 2 and "'OLD'" in err
