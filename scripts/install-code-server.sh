#!/usr/bin/env bash
# Installs code-server (VS Code 1.100.3 in a browser) OUTSIDE the workspace, for the plugin's
# end-to-end suite (packages/sandy-ui-vscode/test): node_modules/.cache/code-server/. Idempotent.
#
# Offline-friendly: code-server's @vscode/ripgrep postinstall downloads ripgrep from GitHub, which CI
# cannot reach; it first looks in $TMPDIR/vscode-ripgrep-cache-<version>/ for the release tarball, so
# we seed that cache with a tarball built from Debian's `rg` (apt-get install ripgrep).
# Needs: node 20 (code-server's requirement), g++/make/python3 and libkrb5-dev (native modules), ripgrep.
set -euo pipefail
cd "$(dirname "$0")/.."

CODE_SERVER_VERSION=4.100.3
# @vscode/ripgrep as pinned by code-server 4.100.3 (lib/vscode/npm-shrinkwrap.json) and the ripgrep
# release its lib/postinstall.js asks for (VERSION).
RIPGREP_PKG_VERSION=1.15.11
RIPGREP_RELEASE=v13.0.0-10
PREFIX="${SANDY_CODE_SERVER_PREFIX:-$PWD/node_modules/.cache/code-server}"
ENTRY="$PREFIX/node_modules/code-server/out/node/entry.js"

installed_version() {
    node -p "require('$PREFIX/node_modules/code-server/package.json').version" 2>/dev/null || true
}
if [[ -f "$ENTRY" && "$(installed_version)" == "$CODE_SERVER_VERSION" && -x "$PREFIX/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ]]; then
    echo "code-server $CODE_SERVER_VERSION already installed in $PREFIX"
    exit 0
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [[ "$node_major" != 20 ]]; then
    echo "code-server $CODE_SERVER_VERSION needs node 20 (this is node $(node -v))." >&2
    exit 1
fi
missing=()
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
if ((${#missing[@]})); then
    echo "Missing: ${missing[*]} — install them (apt-get install -y ${missing[*]}), .ci/run does." >&2
    exit 1
fi

case "$(uname -m)" in
    x86_64) rg_target=x86_64-unknown-linux-musl ;;
    aarch64 | arm64) rg_target=aarch64-unknown-linux-musl ;;
    *) echo "No ripgrep cache recipe for $(uname -m)" >&2; exit 1 ;;
esac
tmp="${TMPDIR:-/tmp}"
rg_cache="$tmp/vscode-ripgrep-cache-$RIPGREP_PKG_VERSION"
rg_tarball="$rg_cache/ripgrep-$RIPGREP_RELEASE-$rg_target.tar.gz"
if [[ ! -s "$rg_tarball" ]]; then
    mkdir -p "$rg_cache"
    staging=$(mktemp -d)
    cp "$(command -v rg)" "$staging/rg"
    # The postinstall untars into its bin/ and expects `rg` at the top of the archive.
    tar czf "$rg_tarball" -C "$staging" rg
    rm -rf "$staging"
    echo "Seeded $rg_tarball from $(command -v rg)"
fi

mkdir -p "$PREFIX"
[[ -f "$PREFIX/package.json" ]] || echo '{ "name": "sandy-code-server", "private": true }' > "$PREFIX/package.json"
echo "Installing code-server@$CODE_SERVER_VERSION into $PREFIX (takes a few minutes: native modules build)…"
# --unsafe-perm: code-server's postinstall (npm install in lib/vscode) refuses to run as root without it.
npm_config_yes=true npm install --prefix "$PREFIX" --unsafe-perm --no-audit --no-fund --loglevel=error \
    "code-server@$CODE_SERVER_VERSION"
if [[ ! -f "$ENTRY" ]]; then
    echo "code-server did not install: $ENTRY is missing." >&2
    exit 1
fi
echo "code-server $(installed_version) installed: $PREFIX/node_modules/.bin/code-server"
