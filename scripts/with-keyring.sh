#!/usr/bin/env bash
# Runs a command with a real, throwaway, unlocked Secret Service (gnome-keyring on a private
# D-Bus session), so keychain code meets the real thing. Used by `npm test` and .ci/run.
set -euo pipefail
if [ "${CHAINSCOPE_KEYRING:-}" = "ready" ]; then exec "$@"; fi
if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
  echo "with-keyring: dbus-run-session or gnome-keyring-daemon is missing (apt install dbus-x11 gnome-keyring);" >&2
  echo "with-keyring: keychain tests will report that no Secret Service is available." >&2
  exec "$@"
fi
keyring_home=$(mktemp -d)
trap 'rm -rf "$keyring_home"' EXIT
export XDG_DATA_HOME="$keyring_home"
dbus-run-session -- bash -c '
  echo -n chainscope-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  export CHAINSCOPE_KEYRING=ready
  exec "$@"' with-keyring "$@"
