# Sourced by the lint and codegen stages: a Python venv holding exactly a requirements file's pinned packages.
#
#   pinned_venv DIR REQUIREMENTS
#
# Reuses DIR while the requirements file is unchanged (its SHA-256 is kept in DIR/.requirements.sha256), else
# builds it again. Returns non-zero, saying why on stderr, when python3's venv or pip fails.
pinned_venv() {
    local venv=$1 requirements=$2
    local stamp="$venv/.requirements.sha256" want
    want=$(sha256sum "$requirements" | cut -d' ' -f1)
    [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && return 0
    echo "== venv: installing $(grep -cv '^#' "$requirements") pinned packages into $venv"
    command -v python3 >/dev/null || { echo "python3 is needed" >&2; return 1; }
    rm -rf "$venv"
    python3 -m venv "$venv" || { echo "python3 -m venv failed (Debian: apt-get install python3-venv)" >&2; return 1; }
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements" || return 1
    echo "$want" > "$stamp"
}
