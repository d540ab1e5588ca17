from django.apps import AppConfig
from django.db.models import QuerySet

from cardsite.types import SiteUser, signed_in


class ReadingsConfig(AppConfig):
    name = "readings"
    # First URL segments this app answers, for pages and after api/ (cardsite.urlmap).
    url_prefixes = ("readings",)

    def ready(self) -> None:
        from cardsite import jobs
        from contributions.selectors import register_upload_holder

        from .services import READINGS

        jobs.register(READINGS)  # a batch of photos is a job: the workers' recovery passes cover it

        # A reading batch's photos are its user's to attach when they submit what was read, even a photo
        # stored before uploads were kept per uploader (then one row served every user who sent that picture).
        register_upload_holder(_reading_photos)


def _reading_photos(user: SiteUser) -> QuerySet:
    user = signed_in(user)
    from .models import PhotoReading

    return PhotoReading.objects.filter(batch__user=user).values("image")
