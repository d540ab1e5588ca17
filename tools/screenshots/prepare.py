"""What the screenshot review's pages show (run by serve.sh through ``manage.py shell``): a player with a deck of
every game (seed cards), some cards in the collection, a published deck with a comment (a notification), a
change set to review, an editor of every game, and a signed-in session for each. Prints one line, "PREPARED"
and the JSON shoot.py reads. The change set's card is clearly synthetic."""

import json

from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.utils import translation

from cards.models import Card, Game
from collection import services as collection_services
from community import services as community_services
from community.models import Publication
from contributions import services as contribution_services
from contributions.models import ChangeSet, GameRole
from decks import services as deck_services
from decks.models import Deck

User = get_user_model()


def user(name, **extra):
    found, _ = User.objects.get_or_create(username=name, defaults={"email": f"{name}@example.org", **extra})
    found.set_password("screenshots-pass-123")
    found.save()
    return found


player = user("shot-player")
editor = user("shot-editor")
for game in Game.objects.all():
    GameRole.objects.get_or_create(user=editor, game=game, defaults={"role": GameRole.Role.EDITOR})


def cards(slug, kind=None, count=None):
    found = Card.objects.filter(game__slug=slug).order_by("pk")
    if kind:
        found = found.filter(kind=kind)
    return list(found[:count] if count else found)


plans = {
    "endbreaker": [("jobs", c, 1) for c in cards("endbreaker", "job", 1)]
    + [("supply", c, 2) for c in cards("endbreaker", "ability", 10)]
    + [("masquerades", c, 1) for c in cards("endbreaker", "masquerade", 4)],
    "shadowera": [("hero", cards("shadowera")[0], 1)] + [("deck", c, 4) for c in cards("shadowera")[1:]],
    "suikoden": [("characters", c, 2) for c in cards("suikoden", "character")]
    + [("lands", c, 3) for c in cards("suikoden", "land")],
    "epicbattles": [("character", cards("epicbattles", "character")[0], 1)]
    + [("deck", c, 1) for c in cards("epicbattles", "character")[1:13]],
}
decks = {}
with translation.override("ja"):
    for slug, entries in plans.items():
        game = Game.objects.get(slug=slug)
        deck = Deck.objects.filter(owner=player, game=game).first() or deck_services.create_deck(
            owner=player,
            game=game,
            name=f"試作デッキ {slug}",
            entries=entries,
            visibility=Deck.Visibility.LINK,
            description="スクリーンショット確認用のデッキ。",
        )
        decks[slug] = deck.pk
        for _zone, card, count in entries[:3]:
            collection_services.set_count(player, card, count)
    shared_token = Deck.objects.get(pk=decks["suikoden"]).share_token
    deck = Deck.objects.get(pk=decks["suikoden"])
    publication = Publication.objects.filter(deck=deck).first()
    if publication is None:
        publication = community_services.publish(deck, user=player, title="試作デッキの公開", description="確認用。")
        community_services.add_comment(publication, author=editor, body="コメントのテストです。")
    proposed = {"key": "SHOT-001", "kind": "character", "fields": {}, "texts": {"ja": {"name": "テストカード"}}}
    change_set = ChangeSet.objects.filter(author=player).first() or contribution_services.submit_change_set(
        author=player,
        game=Game.objects.get(slug="suikoden"),
        cards=[proposed],
        source_kind="own_copy",
    )


def session(who):
    store = SessionStore()
    store["_auth_user_id"] = str(who.pk)
    store["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    store["_auth_user_hash"] = who.get_session_auth_hash()
    store.create()
    return store.session_key


print(
    "PREPARED "
    + json.dumps(
        {
            "decks": decks,
            "token": shared_token,
            "publication": publication.pk,
            "change_set": change_set.pk,
            "player": session(player),
            "editor": session(editor),
            "editor_id": editor.pk,
            "card_pk": cards("suikoden")[0].pk,
        }
    )
)
