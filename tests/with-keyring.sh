#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, so keytar talks
# to a real Secret Service and nothing touches the user's own keyring or $HOME.
set -euo pipefail
if [ -z "${COUNTER_KEYRING_READY:-}" ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  export XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config" XDG_RUNTIME_DIR="$scratch/run"
  mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR"
  chmod 700 "$XDG_RUNTIME_DIR"
  export COUNTER_KEYRING_READY=1
  exec dbus-run-session -- "$0" "$@"
fi
# An empty password makes gnome-keyring ask a (headless, absent) prompter; any fixed one unlocks.
printf 'counter-test-keyring' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
exec "$@"
