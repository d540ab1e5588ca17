"""``python manage.py recover_jobs``: one recovery pass over every kind of background job."""

from django.core.management.base import BaseCommand, no_translations

from cardsite import jobs


class Command(BaseCommand):
    help = (
        "Give the items of background jobs (Monte Carlo runs, comparisons, strategy searches, photo readings) whose "
        "worker stopped beating back to the queue, or fail them after their last attempt; reclaim the task queue's "
        "rows that no worker holds. The workers do this as they start each task and now and then; run it from a "
        "timer when workers may all be idle or stopped."
    )

    @no_translations  # an operator's command: its messages in English
    def handle(self, *args, **options):
        recovered = jobs.recover_all()
        self.stdout.write(f"{recovered} stalled item(s) recovered")
