#!/usr/bin/env bash
# Install the pinned npm agent adapters (04 §1, TST-2) and Node 22 (00 DEC-11) into a private
# prefix for the tests: `just adapters`, used by .ci/run.
#
#   PREFIX   install prefix (default: <repo>/.cache/test-npm)
#   WITH_PI  1 (default) also installs the pinned Pi SDK; 0 skips it
#
# Idempotent: when every pinned package is already present at its pin nothing is fetched, so a
# second run works offline. Install scripts stay enabled (04 DEP-2: node@22's preinstall fetches
# the binary, opencode-ai's postinstall selects the platform binary).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
prefix="${PREFIX:-$repo/.cache/test-npm}"
with_pi="${WITH_PI:-1}"

# Keep these in step with clauz3/sessions/providers/table.py (04 DEP-1; a unit test compares them).
packages=(
    "@agentclientprotocol/claude-agent-acp@0.101.0"
    "@agentclientprotocol/codex-acp@2.6.0"
    "opencode-ai@1.18.33"
    "@modelcontextprotocol/inspector@2.12.0"
    "node@22"
)
if [ "$with_pi" = "1" ]; then
    packages+=("@earendil-works/pi-coding-agent@0.82.1")
fi

if ! command -v npm >/dev/null 2>&1; then
    echo "install_adapters: npm is not on PATH; install Node.js and npm first" >&2
    exit 4
fi

# The installed version of package $1 under the prefix, or nothing.
installed_version() {
    local manifest="$prefix/node_modules/$1/package.json"
    [ -f "$manifest" ] || return 0
    sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' "$manifest" | head -n 1
}

missing=()
for spec in "${packages[@]}"; do
    name="${spec%@*}"
    want="${spec##*@}"
    have="$(installed_version "$name")"
    if [ "$name" = "node" ]; then
        # node@22 is a range: any installed 22.x satisfies it.
        case "$have" in 22.*) continue ;; esac
    elif [ "$have" = "$want" ]; then
        continue
    fi
    missing+=("$spec")
done

if [ "${#missing[@]}" -eq 0 ]; then
    echo "install_adapters: all pinned adapters present in $prefix"
    exit 0
fi

mkdir -p "$prefix"
echo "install_adapters: installing ${missing[*]} into $prefix"
npm install --prefix "$prefix" --no-audit --no-fund --prefer-offline --loglevel=error "${missing[@]}"
echo "install_adapters: done; put $prefix/node_modules/.bin first on PATH to use them"
