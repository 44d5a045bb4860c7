"""Asks the web (or live) process on this host for /healthz, as a load balancer does, with the site's own
host name (Django answers other names 400). Exit status 0 when it answers 200 ("ok" or "degraded": it can
serve pages), 1 otherwise. Standard library only: the container image's HEALTHCHECK runs it.

Usage: python deploy/healthcheck.py [PORT]    (default: $PORT, else 8000)
"""
import json
import os
import sys
import urllib.error
import urllib.request


def site_host():
    """The first name in ALLOWED_HOSTS ('.example.org' allows example.org and its subdomains)."""
    for name in os.environ.get("ALLOWED_HOSTS", "").split(","):
        name = name.strip().lstrip(".")
        if name and name != "*":
            return name
    return "localhost"


def main(argv):
    port = argv[1] if len(argv) > 1 else os.environ.get("PORT", "").strip() or "8000"
    request = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers={"Host": site_host()})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            status = json.loads(answer.read()).get("status", "?")
            print(f"{answer.status} {status}")
            return 0
    except urllib.error.HTTPError as refused:
        print(f"{refused.code} {refused.reason}")
    except (OSError, ValueError) as failed:
        print(f"no answer on port {port}: {failed}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
