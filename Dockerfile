# Spieltisch in a container: a slim Python image, the bot as a non-root user, the database on a volume.
#   docker build -t spieltisch .
#   docker run -d --name spieltisch -e DISCORD_TOKEN=... -v spieltisch-data:/data spieltisch
# Every setting comes from SPIELTISCH_* variables (see config.example.toml); compose.yaml has an example.
#
# The base image is pinned by digest (python:3.12.14-slim-trixie, the multi-platform index), so a
# rebuild gets the same system and Python. To move to a newer one, look its digest up with
#   docker buildx imagetools inspect python:3.12-slim
# and put the "Digest:" line's value here.
FROM python:3.12-slim@sha256:78387bc3881b8273120a12ebe6c1ab22b018ccc2c9adf565ae1ac9b536e184ea

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# The dependencies from the lock file, every file checked against its hash (scripts/lock.sh writes it);
# then the project itself, built with the locked setuptools and resolving nothing more.
COPY requirements.txt ./
RUN pip install --require-hashes -r requirements.txt
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY games ./games
COPY cogs ./cogs
RUN pip install --no-deps --no-build-isolation . \
    && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin spieltisch \
    && mkdir /data \
    && chown spieltisch /data

USER spieltisch
WORKDIR /data
# The database lives on the volume (SPIELTISCH_DATABASE_URL=postgresql://… replaces it with a server).
# /health and /metrics, once SPIELTISCH_METRICS_PORT is set, listen on the container's own loopback
# only, as everywhere: to publish them, also set SPIELTISCH_METRICS_HOST=0.0.0.0 (the container's
# interfaces) and publish the port to the host's loopback, -p 127.0.0.1:9108:9108, as compose.yaml does.
ENV SPIELTISCH_DATABASE_URL=sqlite:////data/spieltisch.sqlite3
VOLUME /data

ENTRYPOINT ["python", "-m", "bot"]
CMD ["run"]
