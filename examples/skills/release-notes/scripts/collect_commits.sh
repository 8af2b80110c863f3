#!/usr/bin/env bash
# Collect commits in a git range and group them by Conventional Commit type.
#
# Usage: collect_commits.sh <from>..<to>
#   <from>  tag, branch or commit of the previous release (required)
#   <to>    tag, branch or commit of the new release (default: HEAD)
#
# Prints a Markdown draft to stdout. Merge commits are skipped.
# Exit codes: 0 success, 2 usage error / not a git repository / unknown ref.
# Works with bash 3.2+ (macOS default) and git 2.x.
set -euo pipefail

usage() {
  sed -n '2,10s/^# \{0,1\}//p' "$0" >&2
}

die() {
  printf 'error: %s\n' "$1" >&2
  exit 2
}

if [[ $# -ne 1 || "$1" == "-h" || "$1" == "--help" ]]; then
  usage
  [[ $# -eq 1 && ( "$1" == "-h" || "$1" == "--help" ) ]] && exit 0
  exit 2
fi

range="$1"
[[ "$range" == *...* ]] && die "use a two-dot range <from>..<to>, not '...': $range"
[[ "$range" == *..* ]] || die "expected a range like v1.2.0..HEAD, got: $range"
from="${range%%..*}"
to="${range#*..}"
[[ -n "$from" ]] || die "missing <from> in range: $range"
[[ -n "$to" ]] || to="HEAD"

git rev-parse --is-inside-work-tree >/dev/null 2>&1 \
  || die "not inside a git repository (cd into the project first)"
for ref in "$from" "$to"; do
  git rev-parse --verify --quiet "${ref}^{commit}" >/dev/null \
    || die "unknown revision '$ref' (list tags with: git tag --sort=-creatordate)"
done

workdir="$(mktemp -d)"
trap 'rm -rf "$workdir"' EXIT

# Group keys, in the order sections are printed, with their headings.
groups="breaking feat fix perf refactor docs build ci test style chore revert other"
heading() {
  case "$1" in
    breaking) echo "⚠ Breaking changes" ;;
    feat) echo "Features" ;;
    fix) echo "Bug fixes" ;;
    perf) echo "Performance" ;;
    refactor) echo "Refactoring" ;;
    docs) echo "Documentation" ;;
    build) echo "Build system and dependencies" ;;
    ci) echo "Continuous integration" ;;
    test) echo "Tests" ;;
    style) echo "Code style" ;;
    chore) echo "Chores" ;;
    revert) echo "Reverts" ;;
    *) echo "Other changes (not conventional)" ;;
  esac
}

# type(scope)!: description
cc_re='^([A-Za-z]+)(\(([^()]*)\))?(!)?: (.+)$'
breaking_re='(^|'$'\n'')BREAKING[ -]CHANGE: ([^'$'\n'']+)'

total=0
# Fields: full hash, short hash, author, subject, body. \x1f separates fields,
# \x1e ends each record (git adds a newline between records, stripped below).
while IFS=$'\x1f' read -r -d $'\x1e' hash short author subject body; do
  hash="${hash#$'\n'}"
  [[ -n "$hash" ]] || continue
  total=$((total + 1))
  printf '%s\n' "$author" >>"$workdir/authors"

  group="other"
  line="$subject ($short)"
  if [[ "$subject" =~ $cc_re ]]; then
    type="$(printf '%s' "${BASH_REMATCH[1]}" | tr '[:upper:]' '[:lower:]')"
    scope="${BASH_REMATCH[3]}"
    bang="${BASH_REMATCH[4]}"
    desc="${BASH_REMATCH[5]}"
    case "$type" in
      feat | fix | perf | refactor | docs | build | ci | test | style | chore | revert) group="$type" ;;
      *) group="other" ;;
    esac
    if [[ -n "$scope" ]]; then
      line="**${scope}:** ${desc} (${short})"
    else
      line="${desc} (${short})"
    fi
    note=""
    if [[ "$body" =~ $breaking_re ]]; then
      note="${BASH_REMATCH[2]}"
    fi
    # Unknown types and breaking changes keep their type as a prefix, since
    # the section heading no longer tells the reader what kind of change it is.
    if [[ -n "$bang" || -n "$note" ]]; then
      group="breaking"
      line="${type}: ${line}"
      [[ -n "$note" ]] && line="${line}"$'\n'"  - ${note}"
    elif [[ "$group" == "other" ]]; then
      line="${type}: ${line}"
    fi
  fi
  printf -- '- %s\n' "$line" >>"$workdir/$group"
done < <(git log --no-merges --pretty=format:'%H%x1f%h%x1f%an%x1f%s%x1f%b%x1e' "${from}..${to}")

merges="$(git rev-list --count --merges "${from}..${to}")"

printf '# Changes in %s..%s\n\n' "$from" "$to"
if [[ "$total" -eq 0 ]]; then
  printf 'No commits found in this range (merge commits skipped: %s).\n' "$merges"
  exit 0
fi

contributors="$(sort -u "$workdir/authors" | wc -l | tr -d ' ')"
printf '%s commits by %s contributor(s); %s merge commit(s) skipped.\n' \
  "$total" "$contributors" "$merges"

for group in $groups; do
  if [[ -s "$workdir/$group" ]]; then
    printf '\n## %s\n\n' "$(heading "$group")"
    cat "$workdir/$group"
  fi
done

printf '\n## Contributors\n\n'
sort "$workdir/authors" | uniq -c | sort -k1,1nr -k2 \
  | sed -E 's/^ *([0-9]+) (.*)$/- \2 (\1)/'
