"""The Under the Moonlight game of the e2e tests: its three modes, and the seed whose deal they
know. With `PS_TEST_SEED` 46 (bot/config.py), two people and a Cynthia: Alice is dealt the Fox
and the Owl and keeps the Owl; Bob is dealt the Beaver and the Turtle and keeps the Turtle, and a
Seed Baby Turtle lies face down on the beach G4 (tests/e2e/test_moonlight_game.py plays it,
tests/e2e/test_hidden_animal.py hides the kept animals)."""

SEED = 46
MODES = ("moon_animals", "elder_tree", "moonstones")
