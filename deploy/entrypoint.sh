#!/bin/sh
# Container entry point: give prometheus_client's multiprocess mode an empty folder (files left
# by a previous run of the container would add stale numbers), then run the command as PID 1's
# only child via exec, so SIGTERM from Docker or Kubernetes reaches it directly.
set -eu
if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
    rm -rf "$PROMETHEUS_MULTIPROC_DIR"
    mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
fi
exec "$@"
