# Spieltisch in a container: a slim Python image, the bot as a non-root user, the database on a volume.
#   docker build -t spieltisch .
#   docker run -d --name spieltisch -e DISCORD_TOKEN=... -v spieltisch-data:/data spieltisch
# Every setting comes from SPIELTISCH_* variables (see config.example.toml); compose.yaml has an example.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY games ./games
COPY cogs ./cogs
RUN pip install . \
    && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin spieltisch \
    && mkdir /data \
    && chown spieltisch /data

USER spieltisch
WORKDIR /data
# The database lives on the volume (SPIELTISCH_DATABASE_URL=postgresql://… replaces it with a server);
# /health and /metrics, once SPIELTISCH_METRICS_PORT is set, listen on every address of the container
# (publish the port only where your monitoring can reach it).
ENV SPIELTISCH_DATABASE_URL=sqlite:////data/spieltisch.sqlite3 \
    SPIELTISCH_METRICS_HOST=0.0.0.0
VOLUME /data
EXPOSE 9108

ENTRYPOINT ["python", "-m", "bot"]
CMD ["run"]
