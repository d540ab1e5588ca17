"""``makemessages`` that also collects messages the plain-Python cores mark with ``N_`` (gettext_noop
without Django), such as the query syntax errors in ``cards.search.messages``."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
