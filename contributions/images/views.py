"""The pictures of one card: propose a picture (the face, the back, a printing in one language), or propose
taking one off. Either is a change set, reviewed as any other (a trusted contributor's applies at once)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.decorators import account_required
from cards.images.selectors import card_pictures, removed_pictures
from cards.images.services import ImageError, image_store
from cards.models import Card
from cardsite.errors import Message, QuotaExceeded
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit

from .. import services
from ..forms import CardImageForm, CardImageRemovalForm
from ..models import ChangeSet
from ..uploads import refuse_oversized_uploads
from ..views import card_to_contribute, thanks


def _removal_or_restoration(card: Card, action: str | None, pk: int) -> dict[str, Any]:
    """What a change set takes off (a picture shown) or puts back (a picture taken off before, as it was)."""
    if action == "remove":
        return {"remove_images": [pk]}
    picture = next((picture for picture in removed_pictures(card) if picture.pk == pk), None)
    if picture is None:
        raise services.ContributionError(
            Message(_("This card has no picture #%(id)s taken off."), {"id": pk}), code="no_such_picture"
        )
    proposal = services.ImageProposal(
        key=card.key, image=picture.image_id, side=picture.side, language=picture.language
    )
    return {"images": [proposal]}


@account_required
@require_http_methods(["GET", "POST"])
@refuse_oversized_uploads
@rate_limit("contribution")
def card_images(request: HttpRequest, game: str, key: str) -> HttpResponse:
    game_row, card = card_to_contribute(request, game, key)
    action = request.POST.get("action") if request.method == "POST" else None
    removing = action in ("remove", "restore")
    form = CardImageForm(request.POST or None, request.FILES or None) if not removing else CardImageForm()
    removal = CardImageRemovalForm(request.POST if removing else None)
    status = 200
    bound = removal if removing else form
    if request.method == "POST" and bound.is_valid():
        data = bound.cleaned_data
        try:
            if removing:
                change_set = services.submit_change_set(
                    author=request.user,
                    game=game_row,
                    cards=[],
                    source_kind=ChangeSet.SourceKind.OTHER,
                    comment=data["comment"],
                    **_removal_or_restoration(card, action, data["picture_id"]),
                )
            else:
                stored = image_store(uploader=request.user, stream=data["picture"], field="picture")
                change_set = services.submit_change_set(
                    author=request.user,
                    game=game_row,
                    cards=[],
                    source_kind=data["source_kind"],
                    source_detail=data.get("source_detail", ""),
                    comment=data.get("comment", ""),
                    images=[
                        services.ImageProposal(
                            key=card.key, image=stored.pk, side=data["side"], language=data.get("language") or ""
                        )
                    ],
                )
        except (ImageError, QuotaExceeded, services.ContributionError) as error:
            bound.add_error("picture" if not removing else None, str(error))
            status = error.status
        else:
            return thanks(request, change_set)
    elif request.method == "POST":
        status = 400
    if removing and not removal.is_valid():
        show_refusal(request, _("Say why."))
    context = {
        "game": game_row,
        "search_game": game_row,
        "card": card,
        "pictures": card_pictures(card),
        "removed": removed_pictures(card),
        "form": form,
        "removal": removal,
    }
    return render(request, "contributions/card_images.html", context, status=status)
