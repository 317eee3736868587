"""The game's data: Cynthia's action cards (``cynthia-deck.json``), the Expert's evaluation
weights (``expert_weights.json``) and the fonts of the pictures (``fonts/``).

Installed as the package ``photosynthesis_data`` (``pyproject.toml`` maps it onto this folder, in
the wheel and in the editable install alike); the code reads it with
``importlib.resources.files("photosynthesis_data")``. No code lives here.
"""
