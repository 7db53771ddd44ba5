# Source this file (`. scripts/use-node22.sh`) to put Node 22 first on this shell's PATH when the machine's node is
# older than 22.12 (Debian 12 ships 20). Node 22 comes from the npm registry (the node-linux-<arch> package that the
# `node` package installs) into ~/.cache once; later shells reuse it. .ci/run sources it too, so CI and a newcomer
# run the same Node. Under an older node every `npm install` warns (EBADENGINE): the ai packages declare node >=22.
OMNIFORGE_NODE_VERSION=22.23.3
omniforge_node_fits() { "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)' 2>/dev/null; }
omniforge_use_node22() {
  omniforge_node_fits node && return 0
  local arch dir tmp
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64) arch=arm64 ;; *) arch="$(uname -m)" ;; esac
  dir="${XDG_CACHE_HOME:-$HOME/.cache}/omniforge-ci/node-$OMNIFORGE_NODE_VERSION-linux-$arch"
  if [ ! -x "$dir/bin/node" ]; then
    echo "[node] this node is $(node --version 2>/dev/null || echo missing); fetching Node $OMNIFORGE_NODE_VERSION from the npm registry (node-linux-$arch)" >&2
    tmp="$(mktemp -d)"
    if ! (cd "$tmp" && npm pack --silent "node-linux-$arch@$OMNIFORGE_NODE_VERSION" >/dev/null) ||
      ! mkdir -p "$dir" || ! tar -xzf "$tmp"/node-linux-"$arch"-*.tgz -C "$dir" --strip-components=1; then
      rm -rf "$tmp" "$dir"
      echo "[node] could not fetch Node $OMNIFORGE_NODE_VERSION" >&2
      return 1
    fi
    rm -rf "$tmp"
  fi
  # Native modules (better-sqlite3) compile against this Node's own headers, not the machine's.
  export PATH="$dir/bin:$PATH" npm_config_nodedir="$dir"
  echo "[node] using $("$dir/bin/node" --version) from $dir" >&2
}
omniforge_use_node22
