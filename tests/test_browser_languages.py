"""Every page type, read in Japanese and in Chinese in a real browser: no interface word in English.

Two nets catch what a reader would see:

- every message the pages translate is recorded as it is translated; one the reader's catalogue lacks
  (shown in English, or for Chinese in the Japanese of the site's default language) fails the test;
- the text the browser shows, less what is data (card names and texts, rules, glossary terms, deck and
  user names: transcribed or typed, and legitimately English at times), is searched for English words
  that no catalogue produced, such as a raw value (``street-fighter``) shown instead of its label.
"""

from __future__ import annotations

import re
from collections import defaultdict

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation
from django.utils.translation import trans_real

from cards.gamedefs.base import TextType
from cards.models import Card, CardText, Game, RuleText, Term, TermText
from contributions import services as contribution_services
from contributions.models import GameRole
from decks.models import Deck
from simulator.goldfish import services as run_services

from .support.browser import wait_until_true
from .support.goldfish import make_deck
from .support.tasks import IMMEDIATE
from .synthetic_decks import load_synthetic_cards
from .users import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

READERS = {"ja": "ja-JP", "zh-hant": "zh-TW"}
GAMES = ("endbreaker", "shadowera", "suikoden", "epicbattles")

# Words an interface in Japanese or Chinese keeps in Latin letters: names of games and formats, words the
# seeds quote as printed (“Side Deck only”, （Round）), wiki pages cited (Category:Heroes, taken whole before
# the data, which may hold "Hero"), sources' names, symbols and card numbers (PT, AT, EB1-001).
PHRASES = re.compile(
    r"Shadow Era|Epic Battles|Mortal Kombat|Street Fighter|Side Deck only|（Round）|Category:[A-Za-z_]+"
)
ALLOWED = re.compile(
    r"SCG|Tekken|API|JSON|OpenAPI|URL|CSV|PDF|ID"
    r"|[\w.-]+\.(?:com|jp|md)\b|Wikipedia|wiki|Category:\w+|\"Rule of Four\"|More About Abilities|DRAW"
    r"|(?<![A-Za-z0-9])EB\d-\d{3}(?!\d)|(?<![A-Za-z])[A-Z]{1,4}\d*(?:-\d+)?(?![A-Za-z])"
    # a name joined by underscores is an identifier, not prose: a source's page name (card_game04)
    r"|(?<![A-Za-z0-9])[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+"
)


class Untranslated:
    """Records each message translated for a Japanese or Chinese reader that their catalogue lacks."""

    def __init__(self) -> None:
        self.found: dict[str, set[str]] = defaultdict(set)

    def _check(self, key: object, shown: str) -> None:
        language = translation.get_language()
        if language not in READERS or not re.search(r"[A-Za-z]{2,}", shown if isinstance(shown, str) else ""):
            return
        catalogue = trans_real.translation(language)._catalog
        if key not in catalogue:
            self.found[language].add(shown)

    def install(self, monkeypatch) -> None:
        trans = translation._trans
        real = {name: getattr(trans, name) for name in ("gettext", "pgettext", "ngettext", "npgettext")}

        def gettext(message):
            if message:
                self._check(message, message)
            return real["gettext"](message)

        def pgettext(context, message):
            self._check(f"{context}\x04{message}", message)
            return real["pgettext"](context, message)

        def ngettext(singular, plural, number):
            self._check((singular, 0), singular)
            return real["ngettext"](singular, plural, number)

        def npgettext(context, singular, plural, number):
            self._check((f"{context}\x04{singular}", 0), singular)
            return real["npgettext"](context, singular, plural, number)

        for name, function in (("gettext", gettext), ("pgettext", pgettext), ("ngettext", ngettext)):
            monkeypatch.setattr(trans, name, function)
        monkeypatch.setattr(trans, "npgettext", npgettext)


# What the reader sees, less what is not interface: code and keys, form values, the markup a <noscript>
# holds as text, and whatever the page marks as written in another language (a rule transcribed from an
# English source, a glossary column in Chinese: data, labelled with its language and its source).
SHOWN_TEXT = """() => {
  const page = document.documentElement.lang.toLowerCase();
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll('script, style, noscript, code, kbd, pre, textarea, input, select, [translate="no"]')
      .forEach((element) => element.remove());
  copy.querySelectorAll('[lang]').forEach((element) => {
    if (element.lang.toLowerCase() !== page) element.remove();
  });
  return copy.textContent;
}"""


def _data_strings() -> list[str]:
    """Text that is data: shown as transcribed or typed, in whatever language it was written."""
    strings: set[str] = set()
    for name, text, notes in CardText.objects.values_list("name", "text", "notes"):
        strings.update((name, text, notes))
    strings.update(Card.objects.values_list("key", flat=True))
    for card in Card.objects.select_related("game"):  # transcribed words in text fields, e.g. a damage type
        definition = card.game.definition
        for name, value in card.fields.items():
            spec = definition.field(name)
            if spec and isinstance(spec.type, TextType) and isinstance(value, str):
                strings.add(spec.type.value_label(value, "ja"))
    strings.update(value for value in Card.objects.values_list("number", flat=True) if value)
    for title, body in RuleText.objects.values_list("title", "body"):
        strings.update((title, *body.split("\n")))
    for values in TermText.objects.values_list("name", "text"):
        strings.update(values)
    strings.update(Term.objects.values_list("key", flat=True))
    strings.update(Deck.objects.values_list("name", flat=True))
    strings.update(get_user_model().objects.values_list("username", flat=True))
    lines = {line.strip() for value in strings if value for line in value.split("\n")}
    return sorted((line for line in lines if len(line) > 1), key=len, reverse=True)


def _english_words(text: str, data: list[str]) -> list[str]:
    # Phrases first, so that a one-word datum (a deck called "Deck") does not break one; then data before
    # the single allowed words, which would break the match of a transcribed line holding them.
    for value in data:  # a datum holding a phrase ("Shadow Era Wiki", a transcribed title) goes whole first
        if PHRASES.search(value) and value in text:
            text = text.replace(value, " ")
    text = PHRASES.sub(" ", text)
    for value in data:
        if value in text:
            text = text.replace(value, " ")
    text = ALLOWED.sub(" ", text)
    return re.findall(r"[A-Za-z][A-Za-z'-]+", text)


def _pages(
    base: str, decks: dict[str, Deck], run_path: str, other_deck: Deck, change_set: int
) -> list[tuple[str, str]]:
    """(what, address) of every page type a player meets."""
    pages = [
        ("home", "/"),
        ("search, empty", "/search/"),
        ("search, results", "/search/?q=テスト"),
        ("search, nothing found", "/search/?q=zzqqxx"),
        ("search, syntax error", "/search/?q=%28テスト"),
        ("search syntax help", "/search/syntax/"),
        ("published decks", "/community/decks/published/"),
        ("my decks", "/decks/"),
        ("new deck", "/decks/new/"),
        ("import a list", "/decks/import/"),
        ("API tokens", "/accounts/tokens/"),
        ("password change", "/accounts/password_change/"),
        ("not found", "/no-such-page/"),
        ("not allowed", f"/decks/{other_deck.pk}/edit/"),
        ("shared deck", f"/decks/shared/{other_deck.share_token}/"),
        ("Monte Carlo run", run_path),
        ("my contributions", "/contributions/"),
        ("review queue", "/contributions/review/"),
        ("a change set, to review", f"/contributions/{change_set}/"),
    ]
    for slug in GAMES:
        card = Card.objects.filter(game__slug=slug).order_by("pk").first()
        deck = decks[slug]
        pages += [
            (f"{slug}: game", f"/games/{slug}/"),
            (f"{slug}: glossary", f"/games/{slug}/glossary/"),
            (f"{slug}: what is missing", f"/games/{slug}/missing/"),
            (f"{slug}: cards", f"/games/{slug}/cards/"),
            (f"{slug}: a card", f"/games/{slug}/cards/{card.key}/"),
            (f"{slug}: a card's history", f"/games/{slug}/cards/{card.key}/history/"),
            (f"{slug}: deleted cards", f"/contributions/games/{slug}/deleted-cards/"),
            (f"{slug}: correct a card", f"/contributions/games/{slug}/cards/{card.key}/edit/"),
            (f"{slug}: add a card", f"/contributions/games/{slug}/contribute/"),
            (f"{slug}: add many cards", f"/contributions/games/{slug}/contribute/bulk/"),
            (f"{slug}: deck", f"/decks/{deck.pk}/"),
            (f"{slug}: builder", f"/decks/{deck.pk}/edit/"),
            (f"{slug}: builder search (a fragment)", f"/decks/{deck.pk}/edit/search/?q=テスト"),
            (f"{slug}: settings", f"/decks/{deck.pk}/settings/"),
            (f"{slug}: replace by a list", f"/decks/{deck.pk}/import/"),
            (f"{slug}: odds", f"/simulator/decks/{deck.pk}/odds/"),
            (f"{slug}: simulate", f"/simulator/decks/{deck.pk}/simulate/"),
        ]
        pages += [
            (f"{slug}: sample hand, turn {turn}", f"/simulator/decks/{deck.pk}/goldfish/?seed=7&turn={turn}")
            for turn in (0, 1, 3, 6)
        ]
    return [(what, base + path) for what, path in pages]


@override_settings(TASKS=IMMEDIATE)
def test_every_page_type_reads_in_japanese_and_chinese(live_server, browser, monkeypatch):
    call_command("loadcards", verbosity=0)
    load_synthetic_cards()
    user = get_user_model().objects.create_user("読者", password=PASSWORD)
    decks = {slug: make_deck(slug, user, visibility=Deck.Visibility.PRIVATE, name=f"テスト{slug}") for slug in GAMES}
    other = get_user_model().objects.create_user("他人", password=PASSWORD)
    other_deck = make_deck("suikoden", other, visibility=Deck.Visibility.LINK, name="共有テスト")
    run = run_services.start_run(
        deck=decks["shadowera"], requester=user, games=200, turns=8, policy="default", params={}, language="ja", seed=3
    )
    run_path = f"/simulator/decks/{decks['shadowera'].pk}/simulate/{run.pk}/"
    shadowera = Game.objects.get(slug="shadowera")
    GameRole.objects.create(user=user, game=shadowera, role=GameRole.Role.EDITOR)
    proposed = {"key": "SE9-NEW", "kind": "hero", "fields": {"health": 30}, "texts": {"ja": {"name": "テスト英雄"}}}
    change_set = contribution_services.submit_change_set(
        author=other, game=shadowera, cards=[proposed], source_kind="own_copy", source_detail="テスト"
    )
    data = [*_data_strings(), "zzqqxx"]  # and the reader's own query, echoed in “No cards match …”

    untranslated = Untranslated()
    untranslated.install(monkeypatch)
    english: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for language, locale in READERS.items():
        context = browser.new_context(locale=locale, extra_http_headers={"Accept-Language": locale})
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", user.username)
        page.fill("input[name=password]", PASSWORD)
        page.locator("form button[type=submit], form input[type=submit]").last.click()
        page.wait_for_load_state("networkidle")
        for what, address in _pages(live_server.url, decks, run_path, other_deck, change_set.pk):
            page.goto(address)
            page.wait_for_load_state("networkidle")
            if "fragment" not in what:
                assert page.evaluate("document.documentElement.lang") == language, (what, address)
            words = _english_words(page.evaluate(SHOWN_TEXT), data)
            if words:
                english[language][what] = sorted(set(words))
        # the odds calculator and a sample hand's draw answer through htmx: their fragments too
        page.goto(f"{live_server.url}/decks/{decks['suikoden'].pk}/goldfish/?seed=7")
        page.click("#goldfish-draw")
        wait_until_true(page, "location.search.includes('draws=')")
        words = _english_words(page.evaluate(SHOWN_TEXT), data)
        if words:
            english[language]["suikoden: a drawn card"] = sorted(set(words))
        context.close()
    assert dict(untranslated.found) == {}, "messages missing from the catalogues"
    assert dict(english) == {}, f"English words on Japanese or Chinese pages: {dict(english)}"
