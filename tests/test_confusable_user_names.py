"""A user name that only looks like one taken is refused at sign-up, as one differing only in case already
is: names are compared by their confusable skeleton (Unicode TR39), kept unique in the database so that two
sign-ups at once cannot both take look-alike names."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from accounts import services
from accounts.forms import SignupForm
from accounts.models import UsernameKey
from cardsite import confusables

from .users import PASSWORD, make_user

User = get_user_model()


def sign_up(client, username: str, language: str = "en"):
    return client.post(
        "/accounts/signup/",
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE=language,
    )


@pytest.mark.django_db
@pytest.mark.parametrize("look_alike", ["\u0430lice", "ＡＬＩＣＥ", "Alice", "a1ice", "\u0430l\u0456c\u0435"])
def test_a_name_that_looks_like_a_taken_one_is_refused_at_sign_up(client, look_alike):
    make_user("alice")
    response = sign_up(client, look_alike)
    assert response.status_code == 200  # the form again, with the error at the name
    assert "looks the same" in response.content.decode() or "already exists" in response.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


@pytest.mark.django_db
def test_a_name_that_looks_different_is_accepted_and_keeps_its_key(client):
    make_user("alice")
    response = sign_up(client, "alicia")
    assert response.status_code == 302
    user = User.objects.get(username="alicia")
    assert UsernameKey.objects.get(user=user).key == confusables.name_key("alicia")


@pytest.mark.django_db
def test_the_refusal_is_in_the_readers_language(client):
    make_user("alice")
    page = sign_up(client, "\u0430lice", language="ja").content.decode()
    assert "already exists" not in page and "同じに見える" in page


@pytest.mark.django_db
def test_two_sign_ups_at_once_cannot_both_take_look_alike_names():
    form = SignupForm({"username": "\u0430lice", "password1": PASSWORD, "password2": PASSWORD})
    assert form.is_valid(), form.errors  # nobody holds the name yet
    make_user("alice")  # another sign-up finishes first
    with pytest.raises(services.NameLooksTaken):
        services.sign_up(form)
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


@pytest.mark.django_db
def test_the_database_refuses_a_second_user_with_the_same_key_whatever_saves_it():
    make_user("alice")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("\u0430lice", password=PASSWORD)
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_a_rename_takes_the_new_key_and_frees_the_old():
    user = make_user("bob")
    user.username = "robert"
    user.save()
    assert UsernameKey.objects.get(user=user).key == confusables.name_key("robert")
    make_user("b0b")  # "bob" is free again


def test_the_skeleton_is_tr39s():
    prototypes = confusables._prototypes()
    assert len(prototypes) == 6307  # every mapping of confusables.txt
    assert not any(char in prototypes for target in prototypes.values() for char in target)  # idempotent
    assert confusables.skeleton("\u0430") == "a" and confusables.skeleton("m") == "rn"
    assert confusables.name_key("ＡＬＩＣＥ") == confusables.name_key("\u0430lice") == "alice"
    assert confusables.name_key("テスト") != confusables.name_key("alice")


@pytest.mark.django_db
def test_the_migration_gives_existing_users_their_keys_and_the_older_of_two_look_alikes_keeps_it():
    import importlib

    from django.apps import apps

    older, newer, other = make_user("alice"), make_user("alicia"), make_user("bob")
    UsernameKey.objects.all().delete()  # as before the migration
    User.objects.filter(pk=newer.pk).update(username="\u0430lice")  # a look-alike made before the rule
    migration = importlib.import_module("accounts.migrations.0001_username_key")
    migration.fill(apps, None)
    keys = dict(UsernameKey.objects.values_list("user_id", "key"))
    assert keys == {older.pk: "alice", other.pk: "bob"}
    newer.refresh_from_db()
    newer.set_password("another-synthetic-password-42")
    newer.save()  # a user left without a key still saves (and keeps none while the name looks taken)
    assert not UsernameKey.objects.filter(user=newer).exists()
