"""The players' commands (issue 45) without Discord: `/ps replay` of an export, the pages'
and the questions' components, the names on a leaderboard."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest
from discord import app_commands

from bot.discord.cogs.board import export_record, read_record
from bot.discord.cogs.players import (
    Players,
    explain_ratings,
    export_range,
    head_to_head_field,
    history_embed,
    identity_name,
    leaderboard_command,
    profile_embed,
)
from bot.discord.player_views import forget_view, history_view, leaderboard_view
from bot.discord.views import unknown_component
from bot.present import embeds, i18n
from bot.ratings import GLOBAL
from bot.services import export
from bot.services.base import UserError
from bot.services.players import (
    HIDDEN_IDENTITY,
    HIDDEN_NAME,
    FamilyStats,
    GameSeat,
    HeadToHead,
    Hidden,
    HistoryPage,
    LeaderboardEntry,
    LeaderboardPage,
    PlayedGame,
    PlayerRating,
    Profile,
    RatingChange,
    Record,
)
from tests.bot_helpers import exported_games as _games


def test_replay_takes_the_chosen_or_first_game_of_an_export_and_says_which():
    games = _games()
    for text in (export.write_jsonl(games), export.write_csv(games)):
        data, which = export_record(text.encode(), None)
        assert read_record(data)[0] == games[0].record
        assert which == "Game #1 of an export of 3 games (the option `game` chooses another)."
        data, which = export_record(text.encode(), 3)
        assert read_record(data)[0] == games[2].record
        assert which is not None and which.startswith("Game #3 of")
    line = export.write_jsonl(games[1:2])
    data, which = export_record(line.encode(), None)
    assert read_record(data)[0] == games[1].record
    assert which == "Game #2 of an export of 1 game."
    record = games[0].record.to_text().encode()  # a record file is replayed as it is
    assert export_record(record, 2) == (record, None)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("jsonl", "the export has no game #7"),
        ("damaged", "line 2 of the export is damaged"),
        ("csv", "the export has no game #7"),
        ("header", "it is an export without games"),
    ],
)
def test_an_export_without_the_game_or_damaged_gets_one_sentence(text, reason):
    games = _games()
    lines = export.write_jsonl(games).splitlines(keepends=True)
    lines[1] = lines[1].replace('"version":1', '"version":9')
    files = {
        "jsonl": export.write_jsonl(games),
        "damaged": "".join(lines),
        "csv": export.write_csv(games),
        "header": export.write_csv([]),
    }
    with pytest.raises(UserError) as refused:
        export_record(files[text].encode(), 7)
    assert refused.value.args[0] == f"This file is not a game record I can replay: {reason}."


def _buttons(view) -> list:
    return [getattr(item, "item", item) for item in view.children]  # a DynamicItem's button


def _ids(view) -> list[tuple[str, bool]]:
    return [(button.custom_id, button.disabled) for button in _buttons(view)]


def test_history_pages_carry_their_player_and_page_and_each_game_a_replay_button():
    assert _ids(history_view(7, 1, 3, [5, 4])) == [
        ("ps:replay:open:5", False),
        ("ps:replay:open:4", False),
        ("ps:hist:7:0", False),
        ("ps:hist:7:2", False),
    ]
    assert _ids(history_view(7, 0, 2, [9])) == [
        ("ps:replay:open:9", False),
        ("ps:hist:7:0", True),  # Previous, on the first page
        ("ps:hist:7:1", False),
    ]
    assert [button.label for button in _buttons(history_view(7, 2, 3, []))] == ["Previous", "Next"]
    assert history_view(7, 0, 1, []) is None


def test_leaderboard_pages_and_forget_answers_are_the_bots_own_components():
    assert leaderboard_view("base", "server", 0, 1) is None
    assert _ids(leaderboard_view("moonlight", "all", 1, 2)) == [
        ("ps:lb:moonlight:all:0", False),
        ("ps:lb:moonlight:all:2", True),  # Next, on the last page
    ]
    assert _ids(forget_view()) == [("ps:forget:yes", False), ("ps:forget:no", False)]
    for custom_id in ("ps:lb:base:server:3", "ps:hist:12:0", "ps:forget:yes"):
        assert not unknown_component(custom_id)
    for custom_id in ("ps:lb:moon:server:3", "ps:lb:base:server:-1", "ps:forget:maybe"):
        assert unknown_component(custom_id)


def test_bots_are_named_on_a_leaderboard():
    assert identity_name("cynthia:harder") == "Cynthia (harder)"
    assert identity_name("cynthia:easier_grow_plus_one") == "Cynthia (own difficulty)"
    assert identity_name("expert:strong") == "Expert (strong)"
    assert identity_name("user:42") == "<@42>"
    with i18n.speaking("he"):
        assert identity_name("user:42") == "\u2068<@42>\u2069"


def test_help_lists_the_players_commands_together():
    fields = [field.name for field in embeds.help_embed(["/ps learn"]).fields]
    at = fields.index("/ps profile [player] [hide]")
    assert fields[at : at + 4] == [
        "/ps profile [player] [hide]",
        "/ps leaderboard, /ps history",
        "/ps export [since] [until], /ps forget",
        "/ps web on|off",
    ]
    assert len(fields) <= 25  # Discord's limit on an embed's fields


# --- the pages' clicks, with the service's answers given -----------------------------------


class _Response:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def edit_message(self, **kwargs) -> None:
        self.sent.append({"edit": True, **kwargs})

    async def send_message(self, content=None, **kwargs) -> None:
        self.sent.append({"content": content, **kwargs})

    def is_done(self) -> bool:
        return bool(self.sent)


class _Players:
    """The player service's answers, and what it was asked."""

    def __init__(self, answer) -> None:
        self.answer, self.asked = answer, []

    async def history(self, *args):
        self.asked.append(args)
        return self.answer

    async def leaderboard(self, *args):
        self.asked.append(args)
        return self.answer


def _click(answer, locale: str = "en-US"):
    service = _Players(answer)
    games = SimpleNamespace(players=service)
    interaction = SimpleNamespace(
        user=SimpleNamespace(id=7),
        guild_id=100,
        channel_id=5,
        locale=locale,
        client=SimpleNamespace(games=games),
        response=_Response(),
        extras={},
        is_guild_integration=lambda: True,  # the server added the bot
    )
    return Players(SimpleNamespace(games=games)), interaction, service


def _game(game_id: int) -> PlayedGame:
    seats = tuple(
        GameSeat(i, f"user:{uid}", uid, name, "human", place, score, {"tokens": score}, None, False)
        for i, (uid, name, place, score) in enumerate([(42, "Ann", 2, 30), (7, "Bo", 1, 41)])
    )
    return PlayedGame(game_id, 100, 5, 900 + game_id, "2026-05-01T10:00:00+00:00", "base", seats, 0)


async def test_a_history_page_click_shows_that_page_in_place():
    cog, interaction, service = _click(HistoryPage(42, 100, 1, 2, 11, (_game(3),)))
    await cog.on_history_page(interaction, 42, 1)
    assert service.asked == [(42, 100, 1, 7)]  # the reader is the one who clicks
    (sent,) = interaction.response.sent
    assert sent["embed"].description == (
        "Finished games of <@42>\n"
        "[#3](https://discord.com/channels/100/903) \N{MIDDLE DOT} 2026-05-01 \N{MIDDLE DOT} "
        "base game \N{MIDDLE DOT} place 2 of 2 \N{MIDDLE DOT} 30 points\n"
        "Ann 30, Bo 41"
    )
    assert sent["embed"].footer.text == "Page 2 of 2"
    assert _ids(sent["view"]) == [
        ("ps:replay:open:3", False),
        ("ps:hist:42:0", False),
        ("ps:hist:42:2", True),
    ]
    cog, interaction, _ = _click(Hidden(42), locale="fr")
    await cog.on_history_page(interaction, 42, 0)
    assert interaction.response.sent == [
        {
            "content": "<@42> garde son profil et ses parties masqués\xa0: dans l'historique "
            "des autres et dans les exports, ses places s'appellent «\xa0un joueur masqué\xa0»,"
            " et il n'est dans aucun classement\u202f; seuls les fils des parties (et leurs "
            "relectures) montrent son nom.",
            "ephemeral": True,
        }
    ]


async def test_a_leaderboard_page_click_names_people_and_bots_and_the_readers_rank():
    entries = (
        LeaderboardEntry(11, "cynthia:harder", None, 30.0, 2.0, 40),
        LeaderboardEntry(12, "user:42", 42, 27.5, 2.5, 9),
    )
    board = LeaderboardPage("moonlight", GLOBAL, 1, 3, 25, entries, entries[1])
    cog, interaction, service = _click(board)
    await cog.on_leaderboard_page(interaction, "moonlight", "all", 1)
    assert service.asked == [("moonlight", GLOBAL, 1, 7)]
    (sent,) = interaction.response.sent
    embed = sent["embed"]
    assert embed.title == "Leaderboard: Under the Moonlight, all servers"
    assert embed.description == (
        "**11.** Cynthia (harder) \N{EM DASH} 24.0 after 40 games\n"
        "**12.** <@42> \N{EM DASH} 20.0 after 9 games\n\n"
        "Your rank: 12 of 25, 20.0."
    )
    assert embed.footer.text == "Page 2 of 3"
    assert _ids(sent["view"]) == [
        ("ps:lb:moonlight:all:0", False),
        ("ps:lb:moonlight:all:2", False),
    ]
    cog, interaction, service = _click(board)
    await cog.on_leaderboard_page(interaction, "base", "server", 0)
    assert service.asked == [("base", 100, 0, 7)]  # this server: the interaction's


def test_a_hidden_profile_read_by_its_owner_in_hebrew():
    profile = Profile(
        user_id=7,
        guild_id=100,
        played=3,
        won=2,
        average_score=41.5,
        best_score=52,
        by_family=(
            FamilyStats("base", 2, 1, 1, 38.0, 38),
            FamilyStats("moonlight", 3, 2, 1, 43.25, 52),
        ),
        favourite_animal="owl",
        recent=(_game(3),),
        ratings=(PlayerRating(100, "moonlight", 25.0, 8.0, 2, None, ()),),
        hidden=True,
    )
    player = SimpleNamespace(display_name="Bo")
    with i18n.speaking("he"):
        embed = profile_embed(profile, player)
    assert embed.title == "הפרופיל של \u2068Bo\u2069"
    assert embed.description == (
        "הפרופיל שלך מוסתר: רק את/ה רואה אותו.\n"
        "משחקים: 3, ניצחונות: 2.\n"
        "ניקוד ממוצע \u206841.5\u2069, הטוב ביותר 52.\n"
        "החיה האהובה: ינשוף."
    )
    assert [field.name for field in embed.fields] == ["משחקים", "דירוג", "משחקים אחרונים"]
    assert embed.fields[0].value.splitlines()[1] == (
        "\u2066Under the Moonlight\u2069, 3 שחקנים — משחקים: 2, ניצחונות: 1, ממוצע \u206843.2\u2069, הטוב ביותר 52"
    )
    assert embed.fields[1].value == (
        "\u2066Under the Moonlight\u2069, השרת הזה: \u20681.0\u2069 אחרי 2 משחקים, לא מדורג/ת בטבלה"
    )


async def test_the_leaderboards_choices_are_named_in_dutch_and_french():
    translator = i18n.CommandTranslator()
    context = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.choice_name, data=None
    )
    names = {}
    for parameter in leaderboard_command.parameters:
        for choice in parameter.choices:
            for locale in (discord.Locale.dutch, discord.Locale.french):
                said = await translator.translate(
                    app_commands.locale_str(choice.name), locale, context
                )
                names[choice.name, locale.value] = said
    assert names == {
        ("base", "nl"): "basis",
        ("base", "fr"): None,  # the same word
        ("moonlight", "nl"): "maanlicht",
        ("moonlight", "fr"): "clair de lune",
        ("server", "nl"): "deze server",
        ("server", "fr"): "ce serveur",
        ("all", "nl"): "alle servers",
        ("all", "fr"): "tous les serveurs",
    }


def _three(rating: RatingChange, place: int = 2) -> PlayedGame:
    """A game of three: Ann (the player, at `place`), a hidden player, Bo."""
    seats = (
        GameSeat(0, "user:42", 42, "Ann", "human", place, 30, {"tokens": 30}, None, False),
        GameSeat(
            1, HIDDEN_IDENTITY, None, HIDDEN_NAME, "human", 1, 41, {"tokens": 41}, None, False
        ),
        GameSeat(2, "user:8", 8, "Bo", "human", 3, 12, {"tokens": 12}, None, False),
    )
    return PlayedGame(3, 100, 5, 903, "2026-05-01T10:00:00+00:00", "base", seats, 0, rating)


@pytest.mark.parametrize(
    ("lang", "line", "seats", "notes"),
    [
        (
            "en",
            "place 2 of 3 \N{MIDDLE DOT} 30 points \N{MIDDLE DOT} rating -0.6 (+1.2)",
            "Ann 30, a hidden player 41, Bo 12",
            ["*A new rating starts at 0: ", "*In a game of three or four, every seat "],
        ),
        (
            "fr",
            "place 2 sur 3 \N{MIDDLE DOT} 30 points \N{MIDDLE DOT} cote -0,6 (+1,2)",
            "Ann 30, un joueur masqué 41, Bo 12",
            ["*Une nouvelle cote part de 0", "*Dans une partie à trois ou quatre, "],
        ),
        (
            "he",
            # the signs after a left-to-right mark: before the digits in a right-to-left line
            "מקום 2 מתוך 3 \N{MIDDLE DOT} 30 נקודות \N{MIDDLE DOT} "
            "דירוג \u2068\u200e-0.6\u2069 (\u2068\u200e+1.2\u2069)",
            "\u2068Ann\u2069 30, \u2068שחקן/ית מוסתר/ת\u2069 41, \u2068Bo\u2069 12",
            ["*דירוג חדש מתחיל ב־0: ", "*במשחק של שלושה או ארבעה, "],
        ),
    ],
)
def test_a_history_says_each_games_rating_change_and_why(lang, line, seats, notes):
    """A game of three not won that raised a new rating: its line ends with the rating after it
    and the change (signed, Babel's numbers), a hidden seat is "a hidden player", and under the
    games both notes say why."""
    game = _three(RatingChange(before=-1.8, after=-0.6, games=2))
    with i18n.speaking(lang):
        embed = history_embed(HistoryPage(42, 100, 0, 1, 1, (game,)))
    lines = embed.description.splitlines()
    assert lines[1].endswith(line), lines[1]
    assert lines[2] == seats
    assert [n[: len(start)] for n, start in zip(lines[3:], notes)] == notes and len(lines) == 5


def test_a_history_gives_its_notes_only_when_a_game_shows_them():
    def notes(*games: PlayedGame) -> list[str]:
        lines = history_embed(HistoryPage(42, 100, 0, 1, 1, games)).description.splitlines()
        return [line[:12] for line in lines if line.startswith("*")]

    old = RatingChange(before=10.0, after=10.5, games=6)  # no longer new
    assert notes(_three(old, place=1)) == []  # won: no wonder it rose
    assert notes(_three(old)) == ["*In a game o"]  # not won, raised
    assert notes(_three(RatingChange(10.5, 10.0, 6))) == []  # not won, lowered
    assert notes(_three(RatingChange(None, -1.8, 1)), _game(4)) == ["*A new ratin"]
    assert notes(_game(4)) == []  # no rating known: nothing said
    first = _three(RatingChange(None, -1.8, 1))
    assert first.rating is not None and first.rating.change == -1.8  # from 0


def _profile(games: int) -> Profile:
    return Profile(
        user_id=7, guild_id=100, played=games, won=1, average_score=30.0, best_score=41,
        by_family=(FamilyStats("base", 2, games, 1, 30.0, 41),), favourite_animal=None,
        recent=(_game(3),), ratings=(PlayerRating(100, "base", 25.0, 8.0, games, None, ()),),
        hidden=False,
    )  # fmt: skip


def test_a_profile_explains_a_new_rating_and_gives_head_to_head_records_in_hebrew():
    player = SimpleNamespace(display_name="Bo")
    h2h = HeadToHead(7, 42, Record(3, 1, 0), Record(2, 2, 1), Record())
    with i18n.speaking("he"):
        embed = profile_embed(_profile(2), player)
        explain_ratings(embed, _profile(2))
        head_to_head_field(embed, h2h, player)
    assert [field.name for field in embed.fields] == [
        "משחקים", "דירוג", "ראש בראש", "משחקים אחרונים",
    ]  # fmt: skip
    assert embed.fields[1].value.splitlines()[1].startswith("*דירוג חדש מתחיל ב־0: ")
    assert embed.fields[2].value == (
        "את/ה נגד \u2068Bo\u2069: ניצחונות: 3, הפסדים: 1\n"
        "\u2068Bo\u2069 נגד סינתיה: ניצחונות: 2, הפסדים: 2, תיקו: 1"
    )  # no line for the Expert: no game against it
    # a rating past its first games says nothing more; one's own profile says "you"
    embed = profile_embed(_profile(6), player)
    explain_ratings(embed, _profile(6))
    head_to_head_field(embed, HeadToHead(7, 7, None, Record(), Record(0, 4, 0)), player)
    assert len(embed.fields[1].value.splitlines()) == 1
    assert embed.fields[2].value == "You against the Expert: 0 won, 4 lost"
    # nothing shared with anyone: no field
    embed = profile_embed(_profile(6), player)
    head_to_head_field(embed, HeadToHead(7, 42, Record(), Record(), Record()), player)
    assert "Head to head" not in [field.name for field in embed.fields]


def test_the_exports_dates():
    assert export_range(None, None) == (None, None)
    assert export_range("2026-05-01", "2026-05-31") == ("2026-05-01", "2026-06-01")
    assert export_range(" 2026-02-28", None) == ("2026-02-28", None)
    assert export_range(None, "2024-02-29") == (None, "2024-03-01")
    assert export_range("2026-05-01", "2026-05-01") == ("2026-05-01", "2026-05-02")
    for bad in ("2026-02-30", "May 1st", "20260501", "2026-5-1", "2026-05-01T10:00"):
        with pytest.raises(UserError) as refused:
            export_range(bad, None)
        assert str(refused.value.sentence).endswith(
            "is not a date: write it as year-month-day, for example 2026-05-01."
        )
    with pytest.raises(UserError) as refused:
        export_range("2026-05-02", "2026-05-01")
    assert str(refused.value.sentence) == "The range is empty: `until` is before `since`."
