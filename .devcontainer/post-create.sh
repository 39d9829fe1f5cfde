#!/usr/bin/env bash
# Runs once when the dev container is created: system packages, sandy, and the project's dependencies.
set -euo pipefail
sudo apt-get update -qq
sudo apt-get install -y -qq libsecret-1-dev libxkbfile-dev chromium >/dev/null
mkdir -p "${SANDY_HOME:-$HOME/.sandy}"
if ! command -v sandy >/dev/null 2>&1; then
    # sandy's own installer (into ~/.local/bin); the IDE finds it there.
    curl -fsSL https://raw.githubusercontent.com/rappdw/sandy/main/install.sh | bash
fi
npm ci
npm run build
echo "Sandy IDE: run 'npm start' (started automatically on each container start), then open the forwarded port 3000."
