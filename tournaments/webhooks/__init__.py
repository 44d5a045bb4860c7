"""Webhooks: HTTPS endpoints that hear of an event's happenings (pairings published, a report waiting, a
result counted, standings changed, the event finished), each delivery a signed JSON body sent by a job,
never by the request that caused it. docs/webhooks.md describes them for the receivers.

- `signing`: the signature header, made and checked;
- `addresses`: where a delivery may go (the address guard) and the one HTTP request it makes;
- `payloads`: what each kind of delivery says (only what is public for the event);
- `listeners`: which endpoints listen (a short-lived cached list, so a site without webhooks pays no query);
- `hooks`: the receivers that queue deliveries inside the transaction of the change;
- `delivery`: one try of one delivery, the backoff, disabling an endpoint that keeps failing;
- `tasks`: the Celery task and the sweep;
- `services`: registering, changing, deleting endpoints, rotating secrets, resending, pinging.
"""
