"""The command line as a package (issue 10, layout point 3): the group in
``ledger/cli/__init__.py`` attaches the commands of one module per family; those
modules import, of the package, only ``ledger.cli.common`` (so no cycle), and hold
no module-level mutable state."""

from __future__ import annotations

import ast
from pathlib import Path

import click

from ledger.cli import COMMAND_MODULES, cli

PACKAGE = Path(__file__).resolve().parent.parent / "ledger" / "cli"
FAMILIES = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__", "common"))


def _package_imports(path: Path) -> set[str]:
    """The ``ledger.cli`` modules a file imports (at module level or in a function)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ledger.cli"):
            out |= {node.module} if node.module != "ledger.cli" else {f"ledger.cli.{a.name}" for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level:
            out.add("relative")
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("ledger.cli")}
    return out


def test_every_family_module_is_attached_once():
    assert sorted(m.__name__.rsplit(".", 1)[1] for m in COMMAND_MODULES) == FAMILIES


def test_a_family_module_imports_only_common_of_the_package():
    beyond = {name: _package_imports(PACKAGE / f"{name}.py") - {"ledger.cli.common"} for name in FAMILIES}
    assert beyond == {name: set() for name in FAMILIES}
    assert "ledger.cli.common" in _package_imports(PACKAGE / "log.py")
    assert _package_imports(PACKAGE / "common.py") == set()


def test_the_group_carries_exactly_the_families_commands():
    attached = [c for m in COMMAND_MODULES for c in m.COMMANDS]
    assert len({c.name for c in attached}) == len(attached)
    assert {name: command for name, command in cli.commands.items()} == {c.name: c for c in attached}
    assert all(isinstance(c, click.Command) for c in attached)


def test_no_module_level_mutable_state_in_the_cli():
    mutable = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
    offenders = []
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Global):
                offenders.append(f"{path.name}:{node.lineno} global")
        for node in tree.body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if isinstance(value, mutable):
                offenders.append(f"{path.name}:{node.lineno} {type(value).__name__}")
    assert offenders == []
