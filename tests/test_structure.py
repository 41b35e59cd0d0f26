"""The layout keeps its shape (issue 10): no import cycle between the package's
modules and no private name used across modules (AST checks over ledger/ and
projections/); every event type has exactly one owner in the fold; every Law
family is registered once and answers for its Laws."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("ledger", "projections")

KNOWN_CYCLES: set[frozenset[str]] = set()
"""Import cycles still held together by function-level imports, outside the fold, to be
removed (each one named here is a debt; a new cycle fails, a removed one must leave the list)."""

KNOWN_PRIVATE: set[tuple[str, str]] = set()
"""(module, name) of private names still used across modules, outside the fold, to be removed."""


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


MODULES = _modules()


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not MODULES[module].name == "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str) -> list[tuple[str, str | None, int]]:
    """(imported module, imported name or None, line) for every import in ``module``,
    at module level or inside a function."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    out: list[tuple[str, str | None, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, None, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, node)
            for a in node.names:
                sub = f"{target}.{a.name}"
                if sub in MODULES:
                    out.append((sub, None, node.lineno))
                else:
                    out.append((target, a.name, node.lineno))
    return out


def _type_only_lines(module: str) -> set[int]:
    """The lines of the imports under ``if TYPE_CHECKING:`` (read by the type checker only)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            lines |= {n.lineno for stmt in node.body for n in ast.walk(stmt)
                      if isinstance(n, (ast.Import, ast.ImportFrom))}
    return lines


def _graph() -> dict[str, set[str]]:
    """Who imports whom when the code runs: an import under ``if TYPE_CHECKING:`` makes no cycle
    (the layer rules below still count it)."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module in MODULES:
        type_only = _type_only_lines(module)
        for target, _, line in _imports(module):
            if target in MODULES and target != module and line not in type_only:
                graph[module].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _private_uses() -> set[tuple[str, str, str, int]]:
    """(user, module, private name, line): a ``_name`` imported from, or read as an
    attribute of, another module of the package."""
    out = set()
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases: dict[str, str] = {}
        for target, name, line in _imports(module):
            if name is not None and name.startswith("_") and not name.startswith("__") and target in MODULES:
                out.add((module, target, name, line))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = _resolve(module, node)
                for a in node.names:
                    if f"{target}.{a.name}" in MODULES:
                        aliases[a.asname or a.name] = f"{target}.{a.name}"
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in MODULES and a.asname:
                        aliases[a.asname] = a.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in aliases and node.attr.startswith("_") and not node.attr.startswith("__"):
                out.add((module, aliases[node.value.id], node.attr, node.lineno))
    return out


CORE_FOR_FAMILIES = ("ledger.laws.base",)
"""What a family may import of ``ledger.laws``: the shared base (and the core: ``projections``, ``ledger.*``)."""

FAMILY_HELPERS = {"ledger.laws.fewest": "ledger.laws.claims"}
"""Modules of ``ledger.laws`` that belong to one family (not families themselves): its own to import."""

KNOWN_FAMILY_IMPORTS: set[tuple[str, str]] = set()
"""(family, family it imports) still to be removed: each one named here is a debt; a new one fails,
a removed one must leave the list."""


def _family_modules() -> set[str]:
    return {m for m in MODULES if m.startswith("ledger.laws.")} - set(CORE_FOR_FAMILIES) - set(FAMILY_HELPERS) \
        - {"ledger.laws.paraphrases"}


def _upward_imports() -> list[tuple[str, str, int]]:
    """(projections module, ledger.laws module, line) for every import of a family by the core."""
    return [(m, t, line) for m in sorted(MODULES) if m.startswith("projections")
            for t, _, line in _imports(m) if t == "ledger.laws" or t.startswith("ledger.laws.")]


def _family_imports() -> set[tuple[str, str]]:
    families = _family_modules()
    out = set()
    for module in sorted(families | set(FAMILY_HELPERS)):
        owner = FAMILY_HELPERS.get(module, module)
        for target, _, _ in _imports(module):
            if target in families and target not in (module, owner) and FAMILY_HELPERS.get(target) != owner:
                out.add((owner, target))
    return out


def test_the_core_imports_no_family():
    """Layer rule 1: no module of ``projections`` imports ``ledger.laws`` or any family, at module
    level or inside a function: the families plug in at the composition root (``ledger.laws``)."""
    assert _upward_imports() == []


def test_the_layer_check_sees_an_upward_import(tmp_path, monkeypatch):
    path = tmp_path / "x.py"
    path.write_text("def f():\n    from ledger.laws.revokes import revokes\n", encoding="utf-8")
    monkeypatch.setitem(MODULES, "projections.x", path)
    assert _upward_imports() == [("projections.x", "ledger.laws.revokes", 2)]


def test_a_family_imports_no_other_family():
    """Layer rule 2: a family imports only ``ledger.laws.base`` and the core; where its Law rests
    on another family's conclusion it reads a derived value of the state (``projections.derived.read``)."""
    found = _family_imports()
    new = sorted(found - KNOWN_FAMILY_IMPORTS)
    assert new == [], f"a family imports another family: {new}"
    gone = sorted(KNOWN_FAMILY_IMPORTS - found)
    assert gone == [], f"no longer imported: take them off KNOWN_FAMILY_IMPORTS: {gone}"


def test_every_family_module_is_registered():
    from ledger.laws import FAMILIES

    assert _family_modules() == {f.reads for f in FAMILIES}


def test_the_results_family_reads_the_revokes_conclusion_through_the_state():
    """Law 77's result after the revoke transfers (64A): a derived value the revokes family supplies."""
    from projections.derived import READER_OWNERS

    assert "ledger.laws.revokes" not in {t for t, _, _ in _imports("ledger.laws.results")}
    assert READER_OWNERS["tricks after transfers"] == "revokes and dummy"


def test_in_place_writes_are_fenced_in_the_state_module():
    """The declarative engine writes a frozen state in place only through ``projections.state.set_fresh``
    (and its own copier): ``object.__setattr__`` anywhere else is refused."""
    offenders = []
    for name, path in MODULES.items():
        if name == "projections.state":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "__setattr__" and isinstance(node.value, ast.Name) \
                    and node.value.id == "object":
                offenders.append(f"{name}:{node.lineno}")
    assert offenders == []
    state = ast.parse(MODULES["projections.state"].read_text(encoding="utf-8"))
    uses = [n for n in ast.walk(state) if isinstance(n, ast.Attribute) and n.attr == "__setattr__"]
    assert len(uses) == 1  # the one alias, used by set_fresh and the copier


REGISTERING = {("projections.fold", "handles"), ("projections.fold", "option_effects"),
               ("projections.fold", "register"), ("projections.play", "interceptor"), ("projections.play", "supply"),
               ("projections.play", "on_played_on"),
               ("projections.cards", "auction_card_hook"), ("projections.cards", "attention_hook"),
               ("projections.auction", "call_interceptor"), ("projections.auction", "supply_call"),
               ("projections.auction", "supply_not_entered"), ("ledger.laws.calls", "supply_record_rules"),
               ("ledger.laws.calls", "supply_withdrawn"),
               ("projections.document", "sections"), ("projections.derived", "supply")}
"""The core's registration functions: only the composition root (``ledger.laws``) calls them."""


def test_one_plug_per_family_no_family_registers_itself():
    """A family marks its functions (``ledger.laws.base``) and names its tables; it imports none of the
    core's registration functions: the composition root registers everything from ``FAMILIES``."""
    offenders = []
    for module in sorted(_family_modules()):
        offenders += [(module, t, n, line) for t, n, line in _imports(module) if (t, n) in REGISTERING]
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        offenders += [(module, "calls", node.attr, node.lineno) for node in ast.walk(tree)
                      if isinstance(node, ast.Attribute) and any((m, node.attr) in REGISTERING
                                                                 for m in ("ledger.laws.calls", "projections.auction"))]
    assert offenders == []


def test_every_registration_comes_from_a_family_record():
    from ledger.laws import FAMILIES, calls
    from projections import auction, cards as card_core, derived, document, fold, play

    families_handlers = {t: h for f in FAMILIES for t, h in f.handlers.items()}
    assert {t: h for t, h in fold.HANDLERS.items() if h.__module__.startswith("ledger.laws")} == families_handlers
    assert dict(play.INTERCEPTORS) == {p: fn for f in FAMILIES for p, fn in f.play_points.items()}
    assert dict(auction.CALL_INTERCEPTORS) == {p: fn for f in FAMILIES for p, fn in f.call_points.items()}
    assert auction.NOT_ENTERED == {r: fn for f in FAMILIES for r, fn in f.not_entered.items()}
    assert calls.RULES_BY_RULING == {r: fn for f in FAMILIES for r, fn in f.record_rules.items()}
    assert sorted(calls.WITHDRAWN_READERS.values(), key=id) == sorted(
        (f.withdrawn_calls for f in FAMILIES if f.withdrawn_calls is not None), key=id)
    assert fold.EFFECTS == {law: e for f in FAMILIES for law, e in f.effects.items()}
    assert card_core.AUCTION_CARD_HOOKS == [h for f in FAMILIES for h in f.auction_card]
    assert card_core.ATTENTION_HOOKS == [h for f in FAMILIES for h in f.attention]
    assert play.PLAYED_ON == [h for f in FAMILIES for h in f.played_on] and len(play.PLAYED_ON) == 3
    assert document.SECTIONS == {k: s for f in FAMILIES for k, s in f.document.items()}
    assert derived.READERS == {k: r for f in FAMILIES for k, r in f.derived.items()}
    assert fold.COMPOSED == ["ledger.laws"]


def test_a_second_composition_is_refused_before_anything_is_registered():
    import ledger.laws as laws
    from projections.fold import HANDLERS

    before = dict(HANDLERS)
    with pytest.raises(RuntimeError, match="handled twice"):
        laws.compose(laws.FAMILIES)
    assert HANDLERS == before
    with pytest.raises(RuntimeError, match="registered twice"):
        laws.compose(laws.FAMILIES + laws.FAMILIES[:1])


@pytest.mark.parametrize("what", ["card word", "call citation", "irregularity word"])
def test_a_ruling_without_words_or_citation_fails_at_import(what):
    """``ledger.laws`` checks the vocabularies when it composes the families (at import): a ruling
    that lost its words or its citation fails there, naming it."""
    import attrs

    import ledger.laws as laws

    laws.check_words(laws.FAMILIES)  # as imported: complete
    name, field, key, expected = {
        "card word": ("cards played or not", "words", "card_rulings", "card ruling misplaced: words"),
        "call citation": ("calls", "citations", None, "call ruling too_late: citation"),
        "irregularity word": ("revokes and dummy", "words", "irregularities", "irregularity revoke: words"),
    }[what]
    index = next(i for i, f in enumerate(laws.FAMILIES) if f.name == name)
    family = laws.FAMILIES[index]
    if field == "words":
        table = {k: v for k, v in getattr(family.words, key).items() if k not in ("misplaced", "revoke")}
        family = attrs.evolve(family, words=attrs.evolve(family.words, **{key: table}))
    else:
        table = {k: (attrs.evolve(v, laws={}) if k == "too_late" else v) for k, v in family.words.call_rulings.items()}
        family = attrs.evolve(family, words=attrs.evolve(family.words, call_rulings=table))
    families = laws.FAMILIES[:index] + (family,) + laws.FAMILIES[index + 1:]
    with pytest.raises(RuntimeError, match=expected):
        laws.check_words(families)


def test_the_checks_see_the_package():
    assert "projections.table" in MODULES and "ledger.laws" in MODULES
    assert any(t == "ledger.laws" for t, _, _ in _imports("ledger.engine"))


def test_no_new_import_cycle():
    found = set(_cycles(_graph()))
    new = [sorted(c) for c in found - KNOWN_CYCLES]
    assert new == [], f"import cycles: {new}"
    gone = [sorted(c) for c in KNOWN_CYCLES - found]
    assert gone == [], f"cycles removed: take them off KNOWN_CYCLES: {gone}"


def test_the_cycle_check_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset({"a", "b", "c"})]


def test_no_private_name_used_across_modules():
    found = _private_uses()
    new = sorted(u for u in found if (u[1], u[2]) not in KNOWN_PRIVATE)
    assert new == [], "private names used across modules (make them public or move the code): " + \
        "; ".join(f"{u} line {line}: {m}.{n}" for u, m, n, line in new)
    gone = sorted(p for p in KNOWN_PRIVATE if not any((u[1], u[2]) == p for u in found))
    assert gone == [], f"no longer used across modules: take them off KNOWN_PRIVATE: {gone}"


def test_every_event_type_has_one_owner():
    from ledger.events import REGISTRY
    from projections.fold import HANDLERS, OWNERS
    from projections.table import REGISTERED  # noqa: F401 (importing it registers the handlers)

    assert sorted(n for n, cls in REGISTRY.items() if cls not in HANDLERS) == []
    assert set(OWNERS) == set(HANDLERS)
    assert all(OWNERS[t].startswith(("projections.", "ledger.laws.")) for t in HANDLERS)


def test_a_second_handler_for_a_type_fails():
    from ledger.events import CardPlayed
    from projections.fold import HANDLERS, OWNERS, handles

    before = dict(HANDLERS)
    with pytest.raises(RuntimeError, match="CardPlayed handled twice"):
        handles(CardPlayed)(lambda state, step: state)
    assert HANDLERS == before and OWNERS[CardPlayed] == "ledger.laws.cards.on_card_played"


def test_a_second_play_interceptor_fails():
    from projections.play import INTERCEPTORS, POINTS, interceptor
    from projections.table import REGISTERED  # noqa: F401

    assert sorted(INTERCEPTORS) == sorted(POINTS)
    with pytest.raises(RuntimeError, match="supplied twice"):
        interceptor("breach")(lambda *a: None)
    assert INTERCEPTORS["breach"].__module__ == "ledger.laws.penalty"


def test_the_families_supply_the_play_time_interceptors():
    """Each interception point of the play core has its family (the core imports none)."""
    from projections.play import INTERCEPTORS
    from projections.table import REGISTERED  # noqa: F401

    assert {p: f.__module__ for p, f in INTERCEPTORS.items()} == {
        "retracted": "ledger.laws.withdrawals", "standing": "ledger.laws.withdrawals",
        "fifth_card": "ledger.laws.leads", "out_of_turn": "ledger.laws.leads", "in_place": "ledger.laws.leads",
        "face_down": "ledger.laws.leads", "premature": "ledger.laws.premature",
        "play_restriction": "ledger.laws.premature", "breach": "ledger.laws.penalty", "result": "ledger.laws.results",
        "withdrawn": "ledger.laws.withdrawals", "defective": "ledger.laws.defective"}


def test_the_play_core_imports_no_family():
    imported = {t for t, _, _ in _imports("projections.play")}
    assert not {t for t in imported if t.startswith("ledger.laws")}


def test_no_module_level_mutable_state_in_the_fold():
    """No module of projections/ or ledger/laws/ rebinds a global at run time."""
    offenders = []
    for name, path in MODULES.items():
        if not name.startswith(("projections", "ledger.laws", "ledger.engine")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Global):
                offenders.append(f"{name}:{node.lineno}")
    assert offenders == []


def test_families_are_registered_once_in_precedence_order():
    from ledger import engine
    from ledger.laws import FAMILIES, RULES

    names = [f.name for f in FAMILIES]
    assert len(names) == len(set(names))
    rules = [r for f in FAMILIES for r in f.rules]
    assert rules == RULES and len(set(rules)) == len(rules)
    assert engine.prescribe.__defaults__ == (RULES,)
    for family in FAMILIES:
        assert family.reads in MODULES, family.reads


@pytest.mark.parametrize("law, family", [
    ("64A2", "revokes and dummy"), ("2017:64B6", "revokes and dummy"), ("1997:46B3b", "designations"),
    ("2017:45C4b", "designations"), ("45C1", "cards played or not"), ("2017:47F", "withdrawals"),
    ("27B1a", "insufficient bids"), ("2017:25B1", "calls"), ("FFB:57.3", "calls"), ("2017:41A", "leads out of turn"), ("50D2", "penalty cards"),
    ("12C1", "scores and appeals"), ("15B", "irregular boards"), ("70", "claims"),
])
def test_find_law(law, family):
    from ledger.laws import find_law

    found = find_law(law)
    assert found is not None and found.name == family


def test_find_law_knows_what_no_family_rules_on():
    from ledger.laws import find_law

    assert find_law("1") is None and find_law("2017:7B") is None
    with pytest.raises(ValueError, match="not a Law"):
        find_law("revoke")


def test_an_earlier_family_takes_precedence(monkeypatch):
    """The README's Law 31 example: a family placed before calls rules on 31."""
    import ledger.laws as laws

    assert laws.find_law("31").name == "calls out of rotation"  # issue 12: the family the README foresaw
    assert laws.find_law("2017:36B").name == "inadmissible calls"
    obliged = laws.Family("obliged to pass", ("37",), (), "ledger.laws.calls")
    assert laws.find_law("37").name == "calls"
    monkeypatch.setattr(laws, "FAMILIES", (obliged,) + laws.FAMILIES)
    assert laws.find_law("2017:37B").name == "obliged to pass"
    assert laws.find_law("25A").name == "calls"


def test_a_second_option_effect_for_a_law_fails():
    from projections.fold import EFFECT_OWNERS, EFFECTS, option_effects
    from projections.table import REGISTERED  # noqa: F401

    assert EFFECT_OWNERS["62C1"] == "ledger.laws.revokes" and EFFECT_OWNERS["25B1"] == "ledger.laws.calls"
    before = dict(EFFECTS)
    with pytest.raises(RuntimeError, match="62C1 registered twice"):
        option_effects({"62C1": lambda state, choice: state}, "elsewhere")
    assert EFFECTS == before


def test_every_call_ruling_has_words_and_every_word_a_ruling():
    from ledger.laws import CALL_RULING_WORDS as RULING_WORDS
    from projections.vocab import CallRuling

    shown = set(CallRuling) - {CallRuling.MADE, CallRuling.NOT_MADE}
    assert sorted(shown - set(RULING_WORDS)) == []
    assert sorted(set(RULING_WORDS) - set(CallRuling)) == []


def test_every_call_ruling_has_a_citation_in_each_edition_where_it_exists():
    """Issue 10, layout point 5: the call families' RULING_LAWS give each ruling its Law per edition
    (an edition it does not arise under is absent; tests/test_calls.py checks the scenario files'
    records against it); made and not_made rest on the FFB regulation, the same in both editions."""
    from ledger.laws import find_law
    from ledger.laws.base import cited
    from ledger.laws import CALL_RULING_LAWS as RULING_LAWS, CALL_RULING_WORDS as RULING_WORDS
    from projections.auction import CALL_MADE, CALL_NOT_RELEASED
    from projections.table import REGISTERED  # noqa: F401 (the families add their rulings' Laws)
    from projections.vocab import CallRuling, Edition

    class Board:
        def __init__(self, edition):
            self.edition = edition

    ruled = set(CallRuling) - {CallRuling.MADE, CallRuling.NOT_MADE}
    assert sorted(ruled - set(RULING_LAWS)) == [] and sorted(set(RULING_LAWS) - ruled) == []
    for ruling, laws in RULING_LAWS.items():
        assert laws and set(laws) <= set(Edition), ruling
        for edition in laws:
            assert ruling in RULING_WORDS
            find_law(cited(Board(edition), RULING_LAWS, ruling))  # a Law: raises ValueError otherwise
    assert find_law(CALL_MADE).name == find_law(CALL_NOT_RELEASED).name == "calls"


@pytest.mark.parametrize("enum_name", ["Edition", "Phase", "CallRuling", "CardRuling", "IrregularityKind",
                                       "OutOfTurnKind"])
def test_every_vocabulary_member_says_what_it_means(enum_name):
    """A docstring per member: the string literal right after each member in projections/vocab.py."""
    tree = ast.parse(MODULES["projections.vocab"].read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == enum_name)
    body = cls.body
    members = [i for i, n in enumerate(body) if isinstance(n, ast.Assign)]
    assert members
    for i in members:
        doc = body[i + 1] if i + 1 < len(body) else None
        assert isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) and doc.value.value.strip(), \
            f"{enum_name}.{body[i].targets[0].id} has no docstring"


def test_the_fold_speaks_the_closed_vocabularies():
    """A ruling outside the vocabulary cannot be recorded (the records convert to the enums)."""
    from ledger.bridge import Call, Seat
    from projections.state import CallRecord

    assert CallRecord(1, Seat.N, Call.parse("1S"), "ib_b2").ruling is CallRuling_("IB_B2")
    with pytest.raises(ValueError):
        CallRecord(1, Seat.N, Call.parse("1S"), "made_up")


def CallRuling_(name):
    from projections.vocab import CallRuling

    return CallRuling[name]


def test_every_edition_citation_is_the_familys_own():
    """Each family's edition table (CITATIONS) cites, in each edition it names, a Law that
    find_law gives to that family."""
    import importlib

    from ledger.laws import FAMILIES, find_law

    checked = 0
    for family in FAMILIES:
        module = importlib.import_module(family.reads)
        for occasion, laws in getattr(module, "CITATIONS", {}).items():
            assert set(laws) <= {"1997", "2017"} and laws, occasion
            for edition, law in laws.items():
                found = find_law(f"{edition}:{law}")
                assert found is not None and found.name == family.name, (occasion, edition, law)
                checked += 1
    assert checked >= 20


def test_cited_refuses_an_occasion_the_edition_does_not_have():
    from ledger.laws.base import cited

    class Board:
        edition = "2017"

    assert cited(Board(), {"x": {"2017": "15B2"}}, "x") == "2017:15B2"
    with pytest.raises(KeyError, match="no rule in the 2017 Laws"):
        cited(Board(), {"x": {"1997": "15C"}}, "x")


def test_law_27_reaches_the_calls_through_their_interception_points():
    """The reading of calls' core (``projections.auction``) offers the points; Law 37 and Law 25's
    change of call are the calls family's, reached by the others through the core."""
    from projections.auction import CALL_INTERCEPTORS, CALL_POINTS, call_interceptor
    from projections.table import REGISTERED  # noqa: F401

    assert sorted(CALL_INTERCEPTORS) == sorted(CALL_POINTS)
    assert {p: f.__module__ for p, f in CALL_INTERCEPTORS.items()} == {
        "pending": "ledger.laws.insufficient", "insufficient_bid": "ledger.laws.insufficient",
        "rotation": "ledger.laws.rotation", "inadmissible": "ledger.laws.inadmissible",  # issue 12
        "obliged": "ledger.laws.calls", "change_of_call": "ledger.laws.calls"}
    with pytest.raises(RuntimeError, match="supplied twice"):
        call_interceptor("pending")(lambda *a: None)
    assert "ledger.laws.insufficient" not in {t for t, _, _ in _imports("ledger.laws.calls")}


def test_the_readme_map_names_every_room():
    """README "How it is built": every module at the top of ``ledger/`` and ``projections/`` and
    every package is named in the map, so the map matches the tree."""
    import re

    root = Path(__file__).resolve().parent.parent
    text = (root / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## How it is built"):]
    block = section[section.index("```"):section.index("```", section.index("```") + 3)]
    missing = []
    for folder in ("ledger", "projections"):
        for path in sorted((root / folder).iterdir()):
            name = path.stem if path.suffix == ".py" else path.name
            if name.startswith("__") or (path.is_dir() and not (path / "__init__.py").exists()) \
                    or (path.is_file() and path.suffix != ".py"):
                continue
            if not re.search(rf"(?<![\w]){re.escape(name)}(\.py|/|\b)", block):
                missing.append(f"{folder}/{path.name}")
    assert not missing, f"not in the README's map: {missing}"
