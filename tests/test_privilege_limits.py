"""Ranks and allowances that hold whatever path is taken: staff cannot silence a superuser or another member of
staff, and no user holds more API tokens than TOKEN_LIMIT_PER_USER, from the API or the tokens page."""

from __future__ import annotations

import pytest
from django.test import Client
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts import services as account_services
from community import services
from community.models import Block, Comment
from decks import services as deck_services

from .support.clients import api_client
from .synthetic_decks import card, game
from .users import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def promoted(name: str, *, superuser: bool = False):
    user = make_user(name)
    user.is_staff = True
    user.is_superuser = superuser
    user.save()
    return user


def published_by(author):
    hero, ally = card("shadowera", "Test Hero 01"), card("shadowera", "Test Ally 01")
    deck = deck_services.create_deck(
        owner=author, game=game("shadowera"), name="synthetic", entries=[("hero", hero, 1), ("deck", ally, 3)]
    )
    return services.publish(deck, user=author, title="Synthetic deck")


def test_staff_cannot_block_a_superuser_or_other_staff(synthetic_cards):
    moderator = promoted("synthetic-moderator")
    root = promoted("synthetic-root", superuser=True)
    colleague = promoted("synthetic-colleague")
    for target in (root, colleague):
        answer = api_client(moderator).post(
            "/api/community/moderation/actions/",
            {"action": "block", "user": target.username, "reason": "x"},
            format="json",
        )
        assert answer.status_code == 403 and answer.json()["code"] == "outranked"
    page = Client(HTTP_ACCEPT_LANGUAGE="en")
    page.force_login(moderator)
    refused = page.post("/community/moderation/act/", {"action": "block", "user": root.pk, "reason": "x"})
    assert refused.status_code == 403
    assert not Block.objects.exists()
    # Nor hide what they published or wrote.
    publication = published_by(root)
    comment = services.add_comment(publication, author=colleague, body="synthetic comment")
    with pytest.raises(services.Outranked):
        services.moderate(moderator=moderator, action="hide", reason="x", publication=publication)
    with pytest.raises(services.Outranked):
        services.moderate(moderator=moderator, action="hide", reason="x", comment=comment)
    assert not Comment.objects.get(pk=comment.pk).hidden
    # The blocked superuser would still publish and comment: nothing was written.
    assert services.add_comment(publication, author=root, body="still here").pk


def test_a_superuser_moderates_staff_and_staff_moderate_other_users(synthetic_cards):
    moderator = promoted("synthetic-moderator")
    root = promoted("synthetic-root", superuser=True)
    member = make_user("synthetic-member")
    services.moderate(moderator=root, action="block", reason="x", user=moderator)
    services.moderate(moderator=moderator, action="block", reason="x", user=member)
    assert set(Block.objects.values_list("user__username", flat=True)) == {"synthetic-moderator", "synthetic-member"}


def test_no_more_tokens_than_the_limit_from_the_api(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "token": None}  # the limit per address is not what is tested
    user = make_user("synthetic-token-holder")
    limit = settings.REST_KNOX["TOKEN_LIMIT_PER_USER"]
    answers = [
        APIClient(HTTP_ACCEPT_LANGUAGE="en")
        .post("/api/accounts/token/", {"username": user.username, "password": PASSWORD}, format="json")
        .status_code
        for _ in range(limit + 1)
    ]
    assert answers == [201] * limit + [403]
    assert AuthToken.objects.filter(user=user).count() == limit
    refused = APIClient(HTTP_ACCEPT_LANGUAGE="en").post(
        "/api/accounts/token/", {"username": user.username, "password": PASSWORD}, format="json"
    )
    assert refused.json()["code"] == "token_limit" and str(limit) in refused.json()["detail"]


def test_no_more_tokens_than_the_limit_from_the_tokens_page(settings):
    user = make_user("synthetic-token-holder")
    limit = settings.REST_KNOX["TOKEN_LIMIT_PER_USER"]
    for _ in range(limit):
        account_services.token_create(user=user)
    page = Client(HTTP_ACCEPT_LANGUAGE="en")
    page.force_login(user)
    refused = page.post("/accounts/tokens/", {"action": "create"})
    assert refused.status_code == 403
    assert "Revoke one before making another" in refused.content.decode()
    assert AuthToken.objects.filter(user=user).count() == limit
    # Revoking one frees its place.
    account_services.token_revoke(user=user, token_key=AuthToken.objects.filter(user=user).first().token_key)
    assert page.post("/accounts/tokens/", {"action": "create"}).status_code == 200
    assert AuthToken.objects.filter(user=user).count() == limit


@pytest.mark.django_db(transaction=True)
def test_tokens_made_at_once_never_pass_the_limit(settings):
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("row locks between connections: PostgreSQL (SQLite serialises writers at BEGIN)")
    user = make_user("synthetic-racer")
    limit = settings.REST_KNOX["TOKEN_LIMIT_PER_USER"]
    for _ in range(limit - 2):
        account_services.token_create(user=user)

    def make(_index: int) -> bool:
        try:
            account_services.token_create(user=user)
            return True
        except account_services.TokenLimitReached:
            return False
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=6) as pool:
        made = list(pool.map(make, range(6)))
    assert made.count(True) == 2
    assert AuthToken.objects.filter(user=user).count() == limit


def test_the_admin_makes_no_tokens():
    root = promoted("synthetic-root", superuser=True)
    user = make_user("synthetic-token-holder")
    admin = Client()
    admin.force_login(root)
    assert admin.get("/admin/knox/authtoken/add/").status_code == 403
    made = admin.post("/admin/knox/authtoken/add/", {"user": user.pk, "expiry": ""})
    assert made.status_code == 403
    assert not AuthToken.objects.exists()
    # Listing and revoking stay.
    account_services.token_create(user=user)
    assert admin.get("/admin/knox/authtoken/").status_code == 200
