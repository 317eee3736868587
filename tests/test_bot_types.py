"""bot/ is type-checked (mypy, `make test`) with no `Any` where a game state, a stored row or a
Discord interaction goes: every such parameter and attribute is annotated with its type."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parent.parent / "bot"
#: Names that hold a game state, a stored row or an interaction wherever bot/ uses them.
TYPED = {"state", "new_state", "previous", "game", "stored", "fresh", "row", "interaction", "click"}


def loose(annotation: ast.expr | None) -> bool:
    """Whether an annotation is missing or is `Any` (alone or in a union)."""
    if annotation is None:
        return True
    text = ast.unparse(annotation)
    return "Any" in text.replace("'", "").replace('"', "").split("[")[0] or text in ("Any",)


def untyped_places(root: Path = BOT) -> list[str]:
    """Where a parameter or attribute of those names is not annotated, or annotated `Any`."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
                for arg in args:
                    if arg.arg in TYPED and loose(arg.annotation):
                        found.append(
                            f"{path.relative_to(root)}:{node.lineno} {node.name}({arg.arg})"
                        )
            elif isinstance(node, ast.AnnAssign) and isinstance(
                node.target, ast.Name | ast.Attribute
            ):
                name = node.target.id if isinstance(node.target, ast.Name) else node.target.attr
                if name in TYPED and loose(node.annotation):
                    found.append(f"{path.relative_to(root)}:{node.lineno} {name}")
    return found


def test_no_any_for_a_state_a_row_or_an_interaction() -> None:
    assert untyped_places() == []


def test_the_check_finds_an_untyped_state(tmp_path: Path) -> None:
    """The check can fail: a `state: Any` and an unannotated game planted in a module are found."""
    (tmp_path / "planted.py").write_text(
        "from typing import Any\n\n\ndef shown(state: Any, game) -> None: ...\n", encoding="utf-8"
    )
    assert untyped_places(tmp_path) == ["planted.py:4 shown(state)", "planted.py:4 shown(game)"]
