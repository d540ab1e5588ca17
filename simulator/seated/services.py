"""Writes of games played one choice at a time (``models.SeatedGame``): start one (a person in one seat and
strategies in the others, or strategies only), answer the person's choice, take an answer back, and keep a
comparison's sample game to watch turn by turn. Every answer is checked by replaying the game with it
(``FullGame.advance``) before it is stored, under a lock on the row, so two tabs answering at once cannot store
an answer the game did not offer; a change sent with the number of answers its sender saw (``answered``) is
refused once the game has moved on, so it never lands on a later choice that happens to offer the same option."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from cards.models import Game
from cardsite.errors import AppError, Conflict, Message

from ..comparisons import services as comparisons
from ..fullgames import FullGame, get_fullgame
from ..inputs import new_seed
from ..models import PERSON_SEAT, ComparisonChunk, ComparisonRun, RunStatus, SeatedGame
from ..shared.results import result_from_dict, setup_to_dict

MIN_SEATS, MAX_SEATS = 1, 4


class SeatedError(AppError):
    code = "seated_game_refused"


def start_seated(
    *,
    owner: Any,
    game: Game,
    fullgame: FullGame,
    seats: Sequence[str],
    setup: Any,
    abilities: Sequence[str] = (),
    seed: int | None = None,
    assumptions: Sequence[dict[str, Any]] = (),
) -> SeatedGame:
    """``seats``: in order, each a shipped strategy's name, ``written:<id>`` (``comparisons.written_strategies``)
    or ``PERSON_SEAT`` (at most one). ``setup``: built by ``shared.selectors.build_setup``; ``assumptions``: the
    deck's assumed values it was built with, kept so that the game names them."""
    if fullgame.advance is None:
        raise SeatedError(Message(_("%(game)s cannot be played here."), {"game": game.definition.names}))
    errors: dict[str, list[Any]] = {}
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        errors["seats"] = [Message(_("From %(low)s to %(high)s players."), {"low": MIN_SEATS, "high": MAX_SEATS})]
    elif list(seats).count(PERSON_SEAT) > 1:
        errors["seats"] = [_("You can take one seat only.")]
    strategies = [seat for seat in seats if seat != PERSON_SEAT]
    named, written, unknown = comparisons.written_strategies(owner, game, fullgame, strategies)
    for index, seat in enumerate(seats):
        if seat in unknown:
            errors[f"seats[{index}]"] = [
                Message(_("Not a strategy of this game you may use: %(names)s."), {"names": [seat]})
            ]
    if errors:
        raise SeatedError(_("The game was not started: see the problems below."), errors=errors)
    resolved = iter(named)
    stored = [PERSON_SEAT if seat == PERSON_SEAT else next(resolved) for seat in seats]
    return SeatedGame.objects.create(
        owner=owner,
        game=game,
        seats=stored,
        written=written,
        abilities=list(abilities),
        setup=setup_to_dict(setup),
        seed=new_seed() if seed is None else seed,
        assumptions=list(assumptions),
    )


def _locked_as_seen(player: Any, pk: int, seen: int | None) -> tuple[SeatedGame, FullGame, Any]:
    """``player``'s game ``pk`` locked for the change, its whole game and the game replayed (``advanced``): 404
    for a game that is not ``player``'s (its existence is not revealed), 409 ``stale_state`` when ``seen`` (the
    answers the caller's view of the game was made with: the state's ``answered``, None for a caller that does
    not say) is no longer the game's count. Every change to the answers comes through here, so an answer, a
    hand played or a take-back meant for one state is never applied to a later one (a double tap, another tab,
    a program that retries)."""
    from . import selectors as seated_selectors  # the selectors replay; they import nothing from here

    seated_selectors.own_game(player, pk)
    current = SeatedGame.objects.select_for_update().select_related("game").get(pk=pk)
    fullgame = get_fullgame(current.game.slug)
    if fullgame is None or fullgame.advance is None:  # start_seated refuses such a game: never stored
        raise Http404
    before = seated_selectors.advanced(current, fullgame)
    if seen is not None and seen != before.answered:
        raise Conflict(
            _("The game has moved on since you looked at it (another tab or program answered). Look again."),
            code="stale_state",
        )
    return current, fullgame, before


@transaction.atomic
def answer(player: Any, pk: int, choice: str, *, seen: int | None = None) -> SeatedGame:
    """Adds the person's answer to their pending choice. Refused as ``_locked_as_seen`` refuses (a game not
    ``player``'s, a state that moved on), (409) when the game asks them nothing now, and (400) for an answer that
    is not one of the options."""
    current, _fullgame, before = _locked_as_seen(player, pk, seen)
    if before.pending is None or current.person is None:
        raise Conflict(_("The game asks you nothing now."), code="nothing_to_answer")
    if choice not in before.pending.options:
        raise SeatedError(
            Message(
                _("“%(answer)s” is not one of the choices: %(options)s."),
                {"answer": choice, "options": list(before.pending.options)},
            ),
            code="not_an_option",
        )
    # ``answered``: answers kept under an earlier version of the game's choices stop where it no longer fits.
    current.answers = [*current.answers[: before.answered], choice]
    current.save(update_fields=["answers", "updated_at"])
    return current


# The most cards "play my whole hand" plays at once (a hand is five cards; draws while playing add a few).
MAX_HAND_PLAYS = 30


@transaction.atomic
def play_hand(player: Any, pk: int, *, seen: int | None = None) -> SeatedGame:
    """Plays the person's hand one card after another, in the order the game offers them, as if they had answered
    each play choice with its first card; stops when the game asks anything else (a card's "may", a choice of
    cards, resolve or gain), when only stopping is left, or at the end. Each card is its own answer, so taking
    one back takes back one card. The page and the API alike come here, so the refusals are the same: those of
    ``_locked_as_seen`` (a game not ``player``'s, a state that moved on), 409 ``game_over`` once the game is
    over, and 409 ``nothing_to_play`` when the game asks no play of a card now."""
    from . import selectors as seated_selectors  # the selectors replay; they import nothing from here

    current, fullgame, before = _locked_as_seen(player, pk, seen)
    if before.pending is None and before.game.winners:
        raise Conflict(_("The game is over."), code="game_over")
    kept = answers = list(current.answers)
    for _played in range(MAX_HAND_PLAYS):
        pending = before.pending
        chosen = (
            None if pending is None or fullgame.next_play is None else fullgame.next_play(pending.kind, pending.options)
        )
        if chosen is None:
            break
        answers = [*answers[: before.answered], chosen]
        current.answers = answers
        before = seated_selectors.advanced(current, fullgame)
    if answers == kept:
        raise Conflict(_("There is no card to play now."), code="nothing_to_play")
    current.save(update_fields=["answers", "updated_at"])
    return current


@transaction.atomic
def take_back(player: Any, pk: int, *, seen: int | None = None) -> SeatedGame:
    """Takes the person's last answer back (the game is replayed without it): the last one the game used, so
    answers kept under an earlier version of its choices, which the player never saw applied, are not what goes.
    Refused as ``_locked_as_seen`` refuses (so a take-back sent twice takes back one answer, not two) and (409)
    when no answer is used."""
    current, _fullgame, before = _locked_as_seen(player, pk, seen)
    if not before.answered:
        raise Conflict(_("There is no answer to take back."), code="nothing_to_take_back")
    current.answers = current.answers[: before.answered - 1]
    current.save(update_fields=["answers", "updated_at"])
    return current


def sample_game(run: ComparisonRun, fullgame: FullGame, percentile: int, owner: Any) -> SeatedGame:
    """The comparison's game at the ``percentile``-th percentile of game length (10, 50 or 90), kept to be
    watched turn by turn: the same set-up, seed and seats as when the comparison played it."""
    chunks = ComparisonChunk.objects.filter(run=run, status=RunStatus.DONE, result__isnull=False)
    results = [result_from_dict(chunk.result) for chunk in chunks if chunk.result is not None]
    if not results:
        raise Conflict(_("The comparison has played no game yet."), code="no_games_yet")
    merged = results[0]
    for result in results[1:]:
        merged = merged.merge(result)
    ref = merged.samples().get(percentile)
    if ref is None:
        raise SeatedError(Message(_("No sample at the %(q)sth percentile."), {"q": percentile}))
    if run.setups:  # against a field: the entrant at seat ``rotation``, the opponents in the other seats
        others = list(run.opponents)
        seats = [*others[: ref.rotation], run.strategies[ref.entrant], *others[ref.rotation :]]
        setup = run.setups[ref.entrant]
    else:
        count = len(run.strategies)
        seats = [run.strategies[(seat + ref.rotation) % count] for seat in range(count)]
        setup = run.setup
    return SeatedGame.objects.create(
        owner=owner,
        game=run.game,
        seats=seats,
        written=run.written,
        abilities=run.abilities,
        setup=setup,
        seed=ref.seed,
        source={"comparison": run.pk, "percentile": percentile},
    )
