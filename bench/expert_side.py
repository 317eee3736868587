"""One side of ``bench/expert_match.py``: the Expert of one source tree, in its own process.

Run by the match, not by hand: ``python bench/expert_side.py --root TREE [--eval NAME]``.
It imports ``engine`` and the game's data (``photosynthesis_data``, the tree's ``data/``) from
``TREE``, whatever tree this script lives in, then answers one JSON line per request on stdin:

    {"config": {"seats": [...], "moon_animals": ...}, "seed": 7, "actions": ["place A1", ...],
     "budget": 0.25, "expert_seed": 7}

with one JSON line on stdout, ``{"action": "grow C3", "cpu": 0.084}``: the Expert's decision
(``engine.expert_action(state, budget_s=budget, seed=expert_seed)``, the API every tree since
issue 18 offers) on the game that ``engine.new_game(Config(**config), seed)`` and ``actions``
reach, and the CPU time (``time.process_time``) of that call alone. The game is kept between
requests and only the actions not yet applied are applied (a request for another game, or one
that does not extend the last, replays from the start). Its first line is a greeting,
``{"engine": ".../engine/__init__.py", "data": ".../data"}``, which the match checks against
``TREE``. ``--eval learned`` plays with the learned evaluation (``engine.expert.eval.use_learned``)
of a tree that has one.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any


def load_tree(root: Path) -> Any:
    """Import ``engine`` from ``root``, with ``photosynthesis_data`` read from ``root/data``
    (the editable install would otherwise map it to the tree the venv was installed from)."""
    sys.path.insert(0, str(root))
    spec = importlib.util.spec_from_file_location(
        "photosynthesis_data",
        root / "data" / "__init__.py",
        submodule_search_locations=[str(root / "data")],
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"no data package in {root}")
    data = importlib.util.module_from_spec(spec)
    sys.modules["photosynthesis_data"] = data
    spec.loader.exec_module(data)
    import engine

    return engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--eval", choices=("shipped", "learned"), default="shipped")
    args = parser.parse_args()
    root = args.root.resolve()
    engine = load_tree(root)
    if args.eval == "learned":
        from engine.expert import eval as expert_eval

        expert_eval.use_learned(True)
    data_dir = Path(sys.modules["photosynthesis_data"].__path__[0])
    print(json.dumps({"engine": engine.__file__, "data": str(data_dir)}), flush=True)
    key: tuple[str, int] | None = None
    state: Any = None
    applied: list[str] = []
    for line in sys.stdin:
        request = json.loads(line)
        actions: list[str] = request["actions"]
        this = (json.dumps(request["config"], sort_keys=True), request["seed"])
        if this != key or actions[: len(applied)] != applied:
            config = request["config"]
            cfg = engine.Config(**{**config, "seats": tuple(config["seats"])})
            key, state, applied = this, engine.new_game(cfg, seed=request["seed"]), []
        for text in actions[len(applied) :]:
            state = engine.apply(state, text)
            applied.append(text)
        t = time.process_time()
        action = engine.expert_action(
            state, budget_s=request["budget"], seed=request["expert_seed"]
        )
        cpu = time.process_time() - t
        print(json.dumps({"action": str(action), "cpu": cpu}), flush=True)


if __name__ == "__main__":
    main()
