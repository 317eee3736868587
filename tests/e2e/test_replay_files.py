"""`/ps replay` with odd files: whatever file comes in, the answer is one sentence saying it is
not a game record, never the apology."""

from __future__ import annotations

import json

from bot.present import texts
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.helpers import answered

CONFIG = {"seats": ["human", "cynthia"]}
PREFIX = texts.REPLAY_BAD.split("{")[0]
ODD_FILES = {
    "nested": '{"config": ' + "[" * 100_000 + "]" * 100_000 + ', "seed": 1}\nend\n',
    "infinity": json.dumps({"config": CONFIG, "seed": 1}).replace(": 1}", ": Infinity}"),
    "nan": json.dumps({"config": CONFIG, "seed": 1}).replace(": 1}", ": NaN}"),
    "odd config": json.dumps({"config": {"seats": [[]] * 3, "revolutions": 1e308}, "seed": 1}),
    "header list": "[1, 2, 3]\n",
}


async def test_odd_record_files_get_one_sentence(fake: FakeDiscord, bot_process) -> None:
    await bot_process()
    alice = fake.add_user("alice")
    chan = fake.add_channel("games")
    for what, text in ODD_FILES.items():
        it = await answered(
            await fake.slash(
                alice, "ps replay", options={"record": ("r.txt", text.encode())}, channel_id=chan
            ),
        )
        assert (what, it.ephemeral) == (what, True)
        assert it.content.startswith(PREFIX) and it.content.endswith("."), (what, it.content)
        assert "\n" not in it.content
    assert fake.late_interactions == []
