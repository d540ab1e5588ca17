"""A source photo on the bulk contribution form, as a contributor meets it: chosen with the table, kept from
the preview to the submission, shown on the change set's page and as each card's per-value source, and
refused (naming the field) as on the single-card form when it is not a picture the site takes or is not
the contributor's.

Every card here is synthetic (keys SE9-P…, names marked テスト); pictures are made with Pillow.
"""

from __future__ import annotations

import io

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from cards.models import StoredImage
from contributions import services
from contributions.models import ChangeSet

from .support.clients import signed_in
from .users import make_user

pytestmark = [pytest.mark.usefixtures("media_root"), pytest.mark.usefixtures("game"), pytest.mark.django_db]

URL = "/contributions/games/shadowera/contribute/bulk/"
TABLE = (
    "game\tkey\tkind\tfield:health\tfield:faction\tname:ja\n"
    "shadowera\tSE9-P1\thero\t30\thuman\tテスト写真甲\n"
    "shadowera\tSE9-P2\thero\t{health}\tshadow\tテスト写真乙\n"
)


def picture(color: tuple[int, int, int] = (30, 120, 60), size: tuple[int, int] = (600, 840), **save) -> bytes:
    """A synthetic photo of a card list: a coloured page with a lighter band."""
    image = Image.new("RGB", size, color)
    image.paste((240, 230, 200), (20, 20, size[0] - 20, 60))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", **save)
    return buffer.getvalue()


def photo(data: bytes, name: str = "list.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


def bulk(client: Client, action: str, health: str = "25", **extra):
    data = {"text": TABLE.format(health=health), "source_kind": "photo", "source_detail": "テスト箱", **extra}
    return client.post(URL, {**data, "action": action})


def kept_token(response) -> str:
    return response.context["form"].data["kept_photo"]


def test_a_photo_chosen_with_the_table_is_kept_from_the_preview_and_shown_with_every_card(player, editor):
    client = signed_in(player)
    previewed = bulk(client, "preview", source_photo=photo(picture()))
    assert previewed.status_code == 200 and previewed.context["preview"].can_submit
    stored = StoredImage.objects.get()
    page = previewed.content.decode()
    # The preview shows the photo it keeps, and carries it in the form; nothing is submitted yet.
    assert "Kept from your preview" in page and stored.thumbnail_url in page
    assert f'value="{kept_token(previewed)}"' in page
    assert not ChangeSet.objects.exists()
    # Submitting sends the table again, but not the file: the kept photo is the change set's source.
    submitted = bulk(client, "submit", kept_photo=kept_token(previewed))
    assert submitted.status_code == 302
    change_set = ChangeSet.objects.get(author=player)
    assert change_set.source_photo == stored and change_set.changes.count() == 2
    assert StoredImage.objects.count() == 1
    shown = client.get(f"/contributions/{change_set.pk}/").content.decode()
    assert "Photo of the card" in shown and stored.thumbnail_url in shown
    services.accept_change_set(editor=editor, change_set_id=change_set.pk)
    for key in ("SE9-P1", "SE9-P2"):
        card_page = Client().get(f"/games/shadowera/cards/{key}/").content.decode()
        assert f'<a class="source-photo" href="{stored.url}">' in card_page, key


def test_a_photo_chosen_at_submit_or_chosen_again_replaces_the_kept_one(player):
    client = signed_in(player)
    previewed = bulk(client, "preview", source_photo=photo(picture(color=(200, 10, 10))))
    first = StoredImage.objects.get()
    submitted = bulk(
        client, "submit", kept_photo=kept_token(previewed), source_photo=photo(picture(color=(10, 10, 200)))
    )
    assert submitted.status_code == 302
    assert ChangeSet.objects.get(author=player).source_photo not in (None, first)


def test_a_kept_photo_can_be_left_out(player):
    client = signed_in(player)
    previewed = bulk(client, "preview", source_photo=photo(picture()))
    assert "Leave this photo out" in previewed.content.decode()
    submitted = bulk(client, "submit", kept_photo=kept_token(previewed), drop_photo="on")
    assert submitted.status_code == 302
    assert ChangeSet.objects.get(author=player).source_photo is None


def test_a_table_without_a_photo_is_submitted_as_before(player):
    submitted = bulk(signed_in(player), "submit")
    assert submitted.status_code == 302
    assert ChangeSet.objects.get(author=player).source_photo is None and not StoredImage.objects.exists()


def test_the_photo_stays_kept_while_the_table_is_corrected(player):
    client = signed_in(player)
    bad = bulk(client, "preview", health="たくさん", source_photo=photo(picture()))
    assert not bad.context["preview"].can_submit and "Kept from your preview" in bad.content.decode()
    fixed = bulk(client, "preview", kept_photo=kept_token(bad))
    assert fixed.context["preview"].can_submit
    assert bulk(client, "submit", kept_photo=kept_token(fixed)).status_code == 302
    assert ChangeSet.objects.get(author=player).source_photo == StoredImage.objects.get()


def test_a_file_that_is_not_a_picture_is_refused_on_the_photo_field_and_nothing_is_submitted(player):
    response = bulk(signed_in(player), "submit", source_photo=photo(b"not a picture at all\n" * 20))
    assert response.status_code == 400
    (message,) = response.context["form"].errors["source_photo"]
    assert "JPEG, PNG, WEBP" in message and message in response.content.decode()
    assert response.context["preview"].can_submit  # the table itself is fine, and still previewed
    assert not StoredImage.objects.exists() and not ChangeSet.objects.exists()


def test_an_oversized_photo_is_refused_naming_the_limit_in_the_readers_language(player, settings):
    settings.IMAGE_MAX_BYTES = 5_000
    response = bulk(signed_in(player, "ja"), "preview", source_photo=photo(picture(size=(1200, 1600), quality=100)))
    assert response.status_code == 413
    (message,) = response.context["form"].errors["source_photo"]
    assert "0.005 MB" in message
    assert not StoredImage.objects.exists()


def test_the_daily_upload_allowance_counts_bulk_photos_too(player, settings):
    settings.IMAGE_UPLOADS_PER_DAY = 1
    client = signed_in(player)
    assert bulk(client, "preview", source_photo=photo(picture(color=(1, 2, 3)))).status_code == 200
    refused = bulk(client, "submit", source_photo=photo(picture(color=(90, 90, 90))))
    assert refused.status_code == 429
    assert "uploaded 1 images" in refused.context["form"].errors["source_photo"][0]
    assert not ChangeSet.objects.exists()


def test_a_photo_kept_for_someone_else_or_altered_is_refused_and_nothing_is_submitted(player):
    other = make_user("other-player")
    theirs = bulk(signed_in(other), "preview", source_photo=photo(picture()))
    client = signed_in(player)
    for token in (kept_token(theirs), kept_token(theirs)[:-2] + "xx", signing.dumps("1", salt="elsewhere")):
        response = bulk(client, "submit", kept_photo=token)
        assert response.status_code == 400
        assert response.context["form"].errors["source_photo"] == [
            "The photo kept from your preview cannot be used: choose it again."
        ]
        # The refused value is not carried on: the next submission goes without it unless a photo is chosen.
        assert token not in response.content.decode()
    assert not ChangeSet.objects.exists()


def test_the_photo_is_kept_while_another_field_is_corrected(player):
    client = signed_in(player)
    data = {"text": TABLE.format(health="25"), "action": "preview", "source_photo": photo(picture())}
    unsaid = client.post(URL, data)  # no source chosen
    assert unsaid.status_code == 200 and "source_kind" in unsaid.context["form"].errors
    assert "Kept from your preview" in unsaid.content.decode()
    submitted = bulk(client, "submit", kept_photo=kept_token(unsaid))
    assert submitted.status_code == 302
    assert ChangeSet.objects.get(author=player).source_photo == StoredImage.objects.get()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_in_a_browser_the_photo_chosen_before_the_preview_is_the_submitted_change_sets(
    live_server, browser, game, player, tmp_path
):
    """A browser sends a chosen file once: the submission after the preview still carries the photo."""
    from playwright.sync_api import expect

    from .users import PASSWORD

    path = tmp_path / "card-list.jpg"
    path.write_bytes(picture(color=(70, 20, 140)))
    base = live_server.url
    page = browser.new_context(locale="en-US").new_page()
    page.goto(f"{base}/accounts/login/?next=/contributions/games/shadowera/contribute/bulk/")
    page.fill("input[name=username]", "player")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(f"{base}/contributions/games/shadowera/contribute/bulk/")
    page.fill("textarea[name=text]", TABLE.format(health="25"))
    page.check("input[name=source_kind][value=photo]")
    page.set_input_files("input[name=source_photo]", str(path))
    page.click("button[name=action][value=preview]")
    expect(page.locator(".bulk-preview .counts")).to_contain_text("New cards: 2")
    expect(page.locator(".kept-photo img")).to_be_visible()
    assert page.evaluate("document.querySelector('input[name=source_photo]').files.length") == 0
    page.click("button[name=action][value=submit]")
    page.wait_for_url("**/contributions/*/")
    expect(page.locator(".source-photo-preview img")).to_be_visible()
    assert ChangeSet.objects.get(author=player).source_photo == StoredImage.objects.get()
