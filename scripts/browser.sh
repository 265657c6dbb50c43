#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (/usr/bin/chromium): install it when it is missing.
# (Playwright's own browser download is not reachable here; see tests/web/browser/conftest.py.)
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends chromium || {
  apt-get update
  apt-get install -y --no-install-recommends chromium
}
