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
  # Not exec: this shell stays to run the trap, which removes the scratch folder once the command ends.
  dbus-run-session -- "$0" "$@"
  exit
fi
# An empty password makes gnome-keyring ask a (headless, absent) prompter; any fixed one unlocks.
printf 'counter-test-keyring' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
status=0
"$@" || status=$?
# The daemon now and then outlives its session's bus: end the one started here (its environment names this
# session's runtime folder), so runs do not leave daemons behind.
for pid in $(pgrep -f '^gnome-keyring-daemon' || true); do
  if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR"; then kill "$pid" 2>/dev/null || true; fi
done
exit "$status"
