"""One inbox for every kind of news a user is sent: the notification model, its kinds and the e-mail preference.

A low app: it imports no app that sends notifications. Each sending app registers its kinds (their label, how one
reads, where it leads, its e-mail) from its own ``AppConfig.ready()`` with ``kinds.register``."""
