"""Mail as jobs: every mail is a `Notification` row written with the change it reports (`outbox`), sent
by a job over one connection to the mail server, tried again later with a growing pause when the server
fails (`sending`, `tasks`). No request waits for the mail server (docs/mail.md)."""
