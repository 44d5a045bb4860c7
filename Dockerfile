# One image for every process of the site. Which one a container runs is its command, always
# `scripts/run <type>` of a Procfile type (web, live, worker, beat), as systemd and honcho run them
# (compose.yaml, docs/deployment.md). Build: docker build -t warline-opp .
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

# A user of its own: the processes cannot change the code, the venv or the collected static files.
RUN groupadd --system opp && useradd --system --gid opp --home-dir /app --no-create-home opp
WORKDIR /app

# The dependencies before the code, so this layer is reused while only the code changes: exactly the
# lock's releases, each file checked against its hash. The venv at /app/.venv is where the Procfile's
# `.venv/bin/...` commands find it.
COPY requirements.lock ./
RUN python -m venv /app/.venv \
 && /app/.venv/bin/pip install --require-hashes -r requirements.lock

COPY . .

# Static files, collected and compressed once, at build time (WhiteNoise serves them from each web process).
# Production settings want a SECRET_KEY and ALLOWED_HOSTS; these build-only values live in this one command
# and in no layer's environment, so no running container sees them.
RUN SECRET_KEY=build-only-never-used-at-run-time ALLOWED_HOSTS=build.invalid \
    /app/.venv/bin/python manage.py collectstatic --noinput

USER opp
EXPOSE 8000 8001
# /healthz of the web process (the live service sets PORT=8001; workers and beat turn it off in compose.yaml).
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["/app/.venv/bin/python", "deploy/healthcheck.py"]
CMD ["scripts/run", "web"]
