"""Readings API: upload a batch of card photos to be read, follow each photo's reading, cancel the batch.

Thin DRF views over ``readings.services`` and ``readings.selectors``. A batch is its uploader's alone: anyone
else gets 404, the anonymous 401. Errors are the services' (and the upload's: ``image_store``), shaped by
the API's one exception handler.
"""

from __future__ import annotations

from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from cards.api.games import game_from_slug
from cards.images.services import too_large_upload
from cardsite.api_errors import ErrorSerializer
from cardsite.api_inputs import refuse_unknown_keys
from cardsite.errors import FieldProblems, Message

from .. import choices, reviewing, selectors, services, submissions
from .serializers import (
    BatchReviewSerializer,
    BatchSubmitResultSerializer,
    BatchSubmitSerializer,
    PhotoSubmitResultSerializer,
    PhotoSubmitSerializer,
    ReadingBatchRequestSerializer,
    ReadingBatchSerializer,
)

# 400, 401, 429 … are added to every operation where they can happen (cardsite.api_schema); these say more.
NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such batch, or one another user uploaded.")


@extend_schema_view(
    post=extend_schema(
        summary="Upload card photos to be read",
        description="One or more photos (`photo`, repeated) of cards of `game`, each checked, re-encoded and kept "
        "as POST /api/images/ keeps a picture, and counted against the same uploads a day. Each is then read on "
        "the task workers: follow the batch's `url` for each photo's state, progress, the lines read, the values "
        "proposed and the existing card matched (by the number read, then the name). Nothing is applied: the "
        "proposals go into a change set the contributor checks. All or nothing: a photo refused and no batch is "
        "kept. Refused: no photo or more than READING_MAX_PHOTOS_PER_BATCH (400 `no_photo`, `too_many_photos`), "
        "a photo as POST /api/images/ refuses it (400, 413), a `printing` language the game has no text in (400 "
        "`invalid`), more uploads in 24 hours than allowed (429 "
        "`image_uploads_per_day`), a user blocked from the game (403 `not_allowed`).",
        request={"multipart/form-data": ReadingBatchRequestSerializer},
        responses={
            201: ReadingBatchSerializer,
            403: OpenApiResponse(ErrorSerializer, description="The user may not contribute to the game."),
            413: OpenApiResponse(ErrorSerializer, description="A photo is larger than the limit it names."),
        },
    )
)
class ReadingBatchCreateView(APIView):
    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser,)

    def post(self, request: Request) -> Response:
        if services.batch_body_too_large(request.META.get("CONTENT_LENGTH")):
            raise too_large_upload("photo")  # before the body is read
        data = request.data
        refuse_unknown_keys(data, ReadingBatchRequestSerializer().fields)
        slug = data.get("game") if hasattr(data, "get") else None
        if not isinstance(slug, str) or not slug:
            raise FieldProblems({"game": [Message(_("Name the game the cards are of, as the form field “game”."))]})
        game = game_from_slug(slug)
        files = data.getlist("photo") if hasattr(data, "getlist") else []
        if any(not isinstance(upload, UploadedFile) for upload in files):
            message = Message(_("Send each photo as a file in the form field “photo”."))
            raise FieldProblems({"photo": [message]})
        printing = str(data.get("printing") or "") if hasattr(data, "get") else ""
        batch = services.reading_batch_create(user=request.user, game=game, files=files, printing=printing)
        batch = selectors.batch_of(request.user, batch.pk)
        body = ReadingBatchSerializer(batch, context={"request": request}).data
        location = reverse("readings_api:batch", args=[batch.pk], request=request)
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": location})


class ReadingBatchView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="A batch of card photos: each photo's state, progress and what was read",
        responses={200: ReadingBatchSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, batch_id: int) -> Response:
        batch = selectors.batch_of(request.user, batch_id)
        return Response(ReadingBatchSerializer(batch, context={"request": request}).data)


class ReadingBatchCancelView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="Cancel a batch of card photos",
        description="The photos still waiting are never read; a photo being read is finished and keeps what was "
        "read. A finished batch is left as it is.",
        request=None,
        responses={200: ReadingBatchSerializer, 404: NOT_FOUND},
    )
    def post(self, request: Request, batch_id: int) -> Response:
        batch = selectors.batch_of(request.user, batch_id)
        services.reading_cancel(batch=batch)
        batch = selectors.batch_of(request.user, batch_id)
        return Response(ReadingBatchSerializer(batch, context={"request": request}).data)


class PhotoSubmitView(APIView):
    permission_classes = (IsAuthenticated,)
    throttle_scope = "contribution"  # as the review pages and every change set

    @extend_schema(
        summary="Submit the values confirmed for one photo as a change set",
        description="The values the contributor confirmed or corrected (read the proposals from the batch) become "
        'one change set, checked as every contribution is, its source the photo ("photo N, read automatically, '
        'confirmed by <user>"). A matched card: a correction of the values sent that differ, and the photo '
        "proposed as its image (`image`). No card matched: a new card of exactly the values sent. It waits for an "
        "editor unless the contributor's changes apply at once. Sent twice: the first change set is answered "
        "(200, `created` false). Refused: a value the game refuses (400 `invalid_cards`, `errors` named by the "
        "values sent: `number`, `name`, `fields.attack` …), a photo not read (409 `photo_not_read`), a new card "
        "another photo of the batch already proposes (409 `card_already_proposed`), a matched card changed "
        "since `seen` (409 `card_changed_since`), nothing to change (409 `no_change`).",
        request=PhotoSubmitSerializer,
        responses={
            201: PhotoSubmitResultSerializer,
            200: PhotoSubmitResultSerializer,
            404: OpenApiResponse(ErrorSerializer, description="No such batch or photo, or another user's."),
            409: OpenApiResponse(ErrorSerializer, description="See the codes above."),
        },
    )
    def post(self, request: Request, batch_id: int, index: int) -> Response:
        batch = selectors.batch_of(request.user, batch_id)
        submissions.photo_of(batch, index)
        serializer = PhotoSubmitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        values = {name: value for name, value in serializer.validated_data.items() if name in request.data}
        values.setdefault("image", True)
        change_set, created = submissions.submit_photo(user=request.user, batch=batch, index=index, values=values)
        body = {
            "change_set": change_set.pk,
            "url": reverse("contributions_api:change-set-detail", args=[change_set.pk], request=request),
            "status": change_set.status,
            "created": created,
        }
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class BatchReviewView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="What is left to decide in a batch: each photo's values read, beside the stored ones",
        description="Every photo read and not yet submitted, as the batch's review page shows it: the card it shows "
        "(null: a new card), and the values read — a new card's every value, a card the site has only where the "
        "reading differs from the stored value — each named as `take` and `edit` name it (`fields.at` …), with "
        "how sure, whether it is left to decide, and the symbols restored as the game prints them (said in the "
        "reader's language). `actions` counts the values to decide: none when the reading is sure.",
        responses={200: BatchReviewSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, batch_id: int) -> Response:
        batch = selectors.batch_of(request.user, batch_id)
        return Response(BatchReviewSerializer({"photos": reviewing.left_to_review(batch)}).data)


class BatchSubmitView(APIView):
    permission_classes = (IsAuthenticated,)
    throttle_scope = "contribution"

    @extend_schema(
        summary="Submit the contributor's choices for a whole batch as one change set",
        description="Each entry of `choices` names a photo and the values whose reading it takes (`take`) or that it "
        "gives (`edit`), by the names of GET …/review/. Nothing changes that the contributor did not choose: a "
        "card the site has keeps every other value, a new card holds only the values chosen, and an empty "
        "`choices` changes nothing (200, `change_set` null). `take_sure` takes every sure reading of every photo "
        "left, as the page's button does. One change set of every card chosen, checked as every contribution is, "
        "its source the photos. All or nothing: a problem is refused naming the photo and the value "
        "(400 `invalid_choices`, `errors` by `<photo>.<value>` such as `2.fields.at`, or `<photo>`; a value the "
        "game refuses: 400 `invalid_cards` named the same way), and nothing is written. Sent again: the photos "
        "named are in one change set already and nothing else changes, so that change set is answered (200, "
        "`created` false); a photo another change set holds named with other changes is refused (409 "
        "`photo_already_submitted`). Also refused: two photos proposing the same new card (409 "
        "`card_already_proposed`), a card changed since `seen` (409 `card_changed_since`).",
        request=BatchSubmitSerializer,
        responses={
            201: BatchSubmitResultSerializer,
            200: BatchSubmitResultSerializer,
            404: NOT_FOUND,
            409: OpenApiResponse(ErrorSerializer, description="See the codes above."),
        },
    )
    def post(self, request: Request, batch_id: int) -> Response:
        serializer = BatchSubmitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        chosen = [
            choices.PhotoChoice(
                photo=entry["photo"],
                take=tuple(entry.get("take") or ()),
                edit=dict(entry.get("edit") or {}),
                image=entry.get("image"),
                card=entry.get("card") or "",
                key=entry.get("key") or "",
                seen=entry.get("seen") or "",
            )
            for entry in data.get("choices") or []
        ]
        outcome = choices.batch_submit_choices(
            user=request.user, batch_id=batch_id, choices=chosen, take_sure=data.get("take_sure", False)
        )
        change_set = outcome.change_set
        body = {
            "change_set": change_set.pk if change_set is not None else None,
            "url": reverse("contributions_api:change-set-detail", args=[change_set.pk], request=request)
            if change_set is not None
            else None,
            "status": change_set.status if change_set is not None else None,
            "created": outcome.created,
            "photos": list(outcome.photos),
        }
        return Response(body, status=status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK)
