#!/bin/sh
# Check the Debian packages cerebras-plan needs to build, test and plot; install the
# missing ones with apt-get when running as root (or through sudo), else print the
# exact apt-get line and fail.  Used by `make run`, `make test` and .ci/run.
set -u

PKGS="build-essential pkg-config libinih-dev libgsl-dev libcsv-dev libcmocka-dev libncurses-dev gnuplot-nox mandoc tmux clang valgrind universal-ctags"

missing=""
for p in $PKGS; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
    case "$st" in
        *"install ok installed"*) ;;
        *) missing="$missing $p" ;;
    esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo"
else
    echo "deps: missing Debian packages:$missing" >&2
    echo "deps: install them with:" >&2
    echo "    sudo apt-get install -y$missing" >&2
    exit 1
fi

echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2 || { echo "deps: apt-get update failed" >&2; exit 1; }
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2 ||
    { echo "deps: apt-get install failed for:$missing" >&2; exit 1; }
