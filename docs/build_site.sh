#!/usr/bin/env bash
# Builds the documentation site from docs/*.md with MkDocs (Debian's `mkdocs`).
#   docs/build_site.sh [OUT]      OUT defaults to build/site (relative to the repository)
# Strict: a link to a page or image that does not exist fails the build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/build/site}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
command -v mkdocs >/dev/null || { echo "build_site.sh: mkdocs not found (apt-get install mkdocs)" >&2; exit 2; }
cd "$root"
mkdocs build --strict --clean --config-file mkdocs.yml --site-dir "$out"
echo "site: $out/index.html"
