#!/usr/bin/env bash
# Builds the libFuzzer targets into .build-fuzz/bin/fuzz-<target> with swiftc directly (not SwiftPM).
#
#   bash Fuzz/build.sh [target...]      (default: every target)
#
# The sources under test are compiled once per module into static libraries (HTTP: the parser and the Core
# value types it needs; Fuel; Providers: Adapters + Support), instrumented for libFuzzer and AddressSanitizer,
# with -enable-testing so targets can reach internal helpers. Each step is skipped when the hash of its
# inputs (sources, flags, compiler version, dependencies) matches the last build.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=.build-fuzz
mkdir -p "$OUT/lib" "$OUT/bin" "$OUT/stamps" "$OUT/logs"

ALL_TARGETS=(parser query nsw wa-rss wa-sites informed-sources vic support snapshot)
SWIFTC=${SWIFTC:-swiftc}
FLAGS=(-O -g -sanitize=fuzzer,address -parse-as-library -enable-testing -swift-version 6)
LINK_FLAGS=()
if command -v ld.lld >/dev/null 2>&1; then LINK_FLAGS=(-use-ld=lld); fi  # gold warns about every ASan symbol

COMPILER_ID=$("$SWIFTC" --version 2>&1 | head -1)

# The HTTP parser needs only these Core files (the others pull in routing and the server).
HTTP_SOURCES=(Sources/HTTP/Parser/*.swift Sources/HTTP/Core/{AbortError,HTTPHeaders,HTTPMethod,HTTPStatus,HTTPVersion}.swift)
mapfile -t FUEL_SOURCES < <(find Sources/Fuel -name '*.swift' | LC_ALL=C sort)
# Not Sources/Providers/Sample or the clients: Sample needs Bundle.module, and neither parses payloads.
mapfile -t PROVIDERS_SOURCES < <(find Sources/Providers/Adapters Sources/Providers/Support -name '*.swift' | LC_ALL=C sort)
# The snapshot file's codec, seal and load limits: App's persistence without the rest of App.
PERSISTENCE_SOURCES=(Sources/App/Persistence/{SnapshotCodec,SnapshotCodec+Entry,SnapshotCodec+TomorrowOnly,ByteCoding,SnapshotCodec+Persistable,LoadLimits,FileSeal}.swift)

# hash <extra text> <files...>: one digest of the text and the files' names and contents.
hash_inputs() {
    local text=$1; shift
    { printf '%s\n' "$text" "$COMPILER_ID" "${FLAGS[*]}" "${LINK_FLAGS[*]}"; for f in "$@"; do printf '%s\n' "$f"; cat "$f"; done; } \
        | sha256sum | cut -c1-16
}

# up_to_date <name> <hash>
up_to_date() { [ -f "$OUT/stamps/$1" ] && [ "$(cat "$OUT/stamps/$1")" = "$2" ]; }

# build_lib <module> <dependency modules (space-separated)> <sources...>:
# $OUT/lib/lib<module>.a and $OUT/lib/<module>.swiftmodule
build_lib() {
    local module=$1 dependencies=$2; shift 2
    local deps="" dependency
    for dependency in $dependencies; do deps+="$(cat "$OUT/stamps/lib-$dependency") "; done
    local key; key=$(hash_inputs "lib $module $deps" "$@")
    if up_to_date "lib-$module" "$key" && [ -f "$OUT/lib/lib$module.a" ]; then return 0; fi
    echo "   compiling module $module ($# files)"
    local started=$SECONDS
    if ! "$SWIFTC" "${FLAGS[@]}" -wmo -module-name "$module" -I "$OUT/lib" \
        -emit-module -emit-module-path "$OUT/lib/$module.swiftmodule" \
        -emit-library -static -o "$OUT/lib/lib$module.a" "$@" >"$OUT/logs/lib-$module.log" 2>&1; then
        cat "$OUT/logs/lib-$module.log" >&2
        echo "build of module $module failed" >&2
        return 1
    fi
    echo "$key" >"$OUT/stamps/lib-$module"
    echo "   module $module built in $((SECONDS - started)) s"
}

# build_target <target> <libs (space-separated)> <sources...>
build_target() {
    local target=$1 libs=$2; shift 2
    local deps="" lib
    for lib in $libs; do deps+="$(cat "$OUT/stamps/lib-$lib") "; done
    local key; key=$(hash_inputs "target $target $deps" "$@")
    local binary="$OUT/bin/fuzz-$target"
    if up_to_date "bin-$target" "$key" && [ -x "$binary" ]; then return 0; fi
    echo "   linking fuzz-$target"
    local archives=()
    for lib in $libs; do archives+=("$OUT/lib/lib$lib.a"); done
    local module="Fuzz_${target//-/_}"
    if ! "$SWIFTC" "${FLAGS[@]}" "${LINK_FLAGS[@]}" -module-name "$module" -I "$OUT/lib" "$@" "${archives[@]}" \
        -o "$binary" >"$OUT/logs/bin-$target.log" 2>&1; then
        cat "$OUT/logs/bin-$target.log" >&2
        echo "build of fuzz-$target failed" >&2
        return 1
    fi
    echo "$key" >"$OUT/stamps/bin-$target"
}

targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${ALL_TARGETS[@]}")

need_http=0 need_providers=0 need_persistence=0
for target in "${targets[@]}"; do
    case $target in
        parser|query) need_http=1 ;;
        nsw|wa-rss|wa-sites|informed-sources|vic|support) need_providers=1 ;;
        snapshot) need_persistence=1 ;;
        *) echo "unknown target: $target (known: ${ALL_TARGETS[*]})" >&2; exit 2 ;;
    esac
done

[ $need_http -eq 1 ] && build_lib HTTP "" "${HTTP_SOURCES[@]}"
if [ $need_providers -eq 1 ] || [ $need_persistence -eq 1 ]; then build_lib Fuel "" "${FUEL_SOURCES[@]}"; fi
if [ $need_providers -eq 1 ]; then build_lib Providers Fuel "${PROVIDERS_SOURCES[@]}"; fi
if [ $need_persistence -eq 1 ]; then build_lib PettyPersistence Fuel "${PERSISTENCE_SOURCES[@]}"; fi

for target in "${targets[@]}"; do
    case $target in
        parser) build_target parser HTTP Fuzz/Targets/Parser.swift ;;
        query) build_target query HTTP Fuzz/Targets/Query.swift ;;
        nsw) build_target nsw "Providers Fuel" Fuzz/Targets/Adapters/Common.swift Fuzz/Targets/Adapters/NSW.swift ;;
        wa-rss) build_target wa-rss "Providers Fuel" Fuzz/Targets/Adapters/Common.swift Fuzz/Targets/Adapters/WARSS.swift ;;
        wa-sites) build_target wa-sites "Providers Fuel" Fuzz/Targets/Adapters/Common.swift Fuzz/Targets/Adapters/WASites.swift ;;
        informed-sources) build_target informed-sources "Providers Fuel" Fuzz/Targets/Adapters/Common.swift Fuzz/Targets/Adapters/InformedSources.swift ;;
        vic) build_target vic "Providers Fuel" Fuzz/Targets/Adapters/Common.swift Fuzz/Targets/Adapters/VIC.swift ;;
        support) build_target support "Providers Fuel" Fuzz/Targets/Adapters/Common.swift Fuzz/Targets/Adapters/Support.swift ;;
        snapshot) build_target snapshot "PettyPersistence Fuel" Fuzz/Targets/Snapshot.swift ;;
    esac
done
