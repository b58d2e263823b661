#!/usr/bin/env bash
# An A/B of the app's speed: bench/ab.sh OLD_REF NEW_REF PAIRS [-- BENCH_OPTIONS...]
#
# Builds both commits in temporary git worktrees of this repository and runs
# `bin/coordinate bench --phases baseline,lifecycle` from each, alternated, PAIRS times: old, new, then new, old,
# and so on, so that a drift of the host weighs on both builds alike. Prints each run's ratio (its lifecycle over its
# baseline, each of its pairs), then each build's mean ratio and new/old, the figure docs/performance.md ("Keeping
# the speed") judges by.
#
# Both builds measure with NEW_REF's bench: its sources under src/bench are copied into the old tree before the
# build (listed; the old runs then report git_dirty true), so that a change to the bench itself, such as the length
# of its windows, cannot pass for a change of speed. Files that import the engine's internals (io.coordinate.engine.state,
# io.coordinate.storage: the engine-only benchmarks, not used by `bench --phases baseline,lifecycle`), and the other
# bench commands that use those, stay the old tree's own, since they compile only against their own engine. AB_OWN_BENCH=1 keeps each tree's bench whole.
#
# AB_SECOND_OLD=REF adds a third build, old2, to every round (old, new, old2, then old2, new, old, ...), so that one
# set of runs compares the new build with two earlier ones (say the commits before two issues) on the same host.
#
# BENCH_OPTIONS go to every run (e.g. -- --repeat 5). The JSON of each run goes to bench/results/ of this repository
# (AB_RESULTS_DIR to change it); the runs' output to a log directory that is kept (AB_LOG_DIR, default
# /tmp/ab-<time>). Maven runs offline (AB_MVN_ARGS, default -o). Build, test and run nothing else meanwhile.
set -euo pipefail

usage() {
  echo "usage: bench/ab.sh OLD_REF NEW_REF PAIRS [-- BENCH_OPTIONS...]" >&2
  exit 2
}
[[ $# -ge 3 ]] || usage
old_ref="$1"
new_ref="$2"
pairs="$3"
shift 3
if [[ $# -gt 0 ]]; then
  [[ "$1" == "--" ]] || usage
  shift
fi
[[ "$pairs" =~ ^[1-9][0-9]*$ ]] || usage

repo="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
old_commit="$(git -C "$repo" rev-parse --verify "$old_ref^{commit}")"
new_commit="$(git -C "$repo" rev-parse --verify "$new_ref^{commit}")"
results_dir="$(mkdir -p "${AB_RESULTS_DIR:-$repo/bench/results}" && cd "${AB_RESULTS_DIR:-$repo/bench/results}" && pwd)"
log_dir="${AB_LOG_DIR:-/tmp/ab-$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$log_dir"
read -r -a mvn_args <<<"${AB_MVN_ARGS:--o}"

trees="$(mktemp -d /tmp/ab-trees-XXXXXX)"
cleanup() {
  for build in old new old2; do
    if [[ -d "$trees/$build" ]]; then
      git -C "$repo" worktree remove --force "$trees/$build" >/dev/null 2>&1 || true
    fi
  done
  rm -rf "$trees"
}
trap cleanup EXIT

git -C "$repo" worktree add --quiet --detach "$trees/old" "$old_commit"
git -C "$repo" worktree add --quiet --detach "$trees/new" "$new_commit"
builds=(old new)
declare -A commit=([old]="$old_commit" [new]="$new_commit")
if [[ -n "${AB_SECOND_OLD:-}" ]]; then
  commit[old2]="$(git -C "$repo" rev-parse --verify "$AB_SECOND_OLD^{commit}")"
  git -C "$repo" worktree add --quiet --detach "$trees/old2" "${commit[old2]}"
  builds+=(old2)
fi

# The new bench in the old tree (see the header).
if [[ -z "${AB_OWN_BENCH:-}" ]]; then
  bench_files="$(cd "$trees/new" && find src/bench -type f -name '*.java' | sort)"
  # The files that stay the old trees' own: those importing the engine's internals, and the other commands (cli) that
  # name one of them; `bench` itself uses only what the old engine also has.
  own="$(cd "$trees/new" && python3 - $bench_files <<'PY'
import os, re, sys
files = {f: open(f).read() for f in sys.argv[1:]}
own = {f for f, text in files.items() if re.search(r"^import (static )?io\.coordinate\.(engine\.state|storage)\.", text, re.M)}
names = "|".join(os.path.basename(f)[:-5] for f in own) or "^$"
own |= {f for f, text in files.items() if "/cli/" in f and re.search(r"\b(" + names + r")\b", text)}
print("\n".join(sorted(own)))
PY
)"
  for build in "${builds[@]}"; do
    [[ "$build" == new ]] && continue
    while IFS= read -r file; do
      if grep -qxF "$file" <<<"$own"; then
        continue
      fi
      if ! cmp -s "$trees/new/$file" "$trees/$build/$file"; then
        mkdir -p "$(dirname "$trees/$build/$file")"
        cp "$trees/new/$file" "$trees/$build/$file"
        echo "ab: the $build tree measures with the new $file"
      fi
    done <<<"$bench_files"
  done
fi

for build in "${builds[@]}"; do
  echo "ab: building $build (${commit[$build]:0:12}) ..."
  started="$(date +%s)"
  (cd "$trees/$build" && mvn "${mvn_args[@]}" -q -B -DskipTests compile) >"$log_dir/build-$build.log" 2>&1 || {
    echo "ab: the $build build failed; see $log_dir/build-$build.log" >&2
    exit 1
  }
  # As bin/coordinate marks its own builds, so that it does not build again.
  touch -d "@$started" "$trees/$build/target/classes"
done

summary="$log_dir/runs.tsv"
: >"$summary"

# One bench run: run BUILD NUMBER BENCH_OPTIONS...; prints its figures and adds "build ratio µs-per-unit" to the
# summary.
run() {
  local build="$1" number="$2"
  shift 2
  local out="$log_dir/run-$number-$build.out" err="$log_dir/run-$number-$build.err"
  echo "ab: run $number: $build ..."
  (cd "$trees/$build" && COORDINATE_NO_BUILD=1 bin/coordinate bench --phases baseline,lifecycle \
    --results-dir "$results_dir" "$@") >"$out" 2>"$err" || {
    echo "ab: run $number ($build) failed; see $err" >&2
    exit 1
  }
  grep '^RESULT ' "$out" | tail -1 | cut -c8- | python3 -c '
import json, sys
build, summary, json_file = sys.argv[1], sys.argv[2], sys.argv[3]
r = json.load(sys.stdin)
life = r["details"]["lifecycle"]
us = life["stream_thread_busy"] / r["units_per_s"] * 1e6
pairs = " / ".join("%.3f" % p for p in life.get("ratio_of_each_run", []))
window = lambda key: "%.2f s" % r[key] if r.get(key) is not None else "a window not reported"
print("   %s %s (git_dirty %s), %s: ratio %.3f (pairs %s); lifecycle %s units/s over %s, baseline %s records/s "
      "over %s; stream thread %.2f us per unit; other processes %.2f cores at most"
      % (build, r["git_commit"], json.dumps(r["git_dirty"]), json_file, r["ratio"], pairs, format(round(r["units_per_s"]), ","),
         window("lifecycle_window_s"), format(round(r["baseline_records_per_s"]), ","), window("baseline_window_s"),
         us, r["other_processes_cpu_cores_max"]))
with open(summary, "a") as f:
    f.write("%s\t%s\t%s\n" % (build, r["ratio"], us))
' "$build" "$summary" "$(sed -n 's/^wrote //p' "$err" | tail -1)"
}

number=0
for ((pair = 1; pair <= pairs; pair++)); do
  if ((pair % 2 == 1)); then order=("${builds[@]}"); else order=($(printf '%s\n' "${builds[@]}" | tac)); fi
  for build in "${order[@]}"; do
    number=$((number + 1))
    run "$build" "$number" "$@"
  done
done

python3 - "$summary" "$old_commit" "$new_commit" "${commit[old2]:-}" <<'EOF'
import sys
rows = [line.split("\t") for line in open(sys.argv[1]) if line.strip()]
commits = {"old": sys.argv[2][:12], "new": sys.argv[3][:12]}
if sys.argv[4]:
    commits["old2"] = sys.argv[4][:12]
means = {}
for build in commits:
    ratios = [float(r[1]) for r in rows if r[0] == build]
    us = [float(r[2]) for r in rows if r[0] == build]
    means[build] = sum(ratios) / len(ratios)
    print("%s %s: ratios %s; mean ratio %.3f; stream thread %.2f us per unit on average"
          % (build, commits[build], " / ".join("%.3f" % r for r in ratios), means[build], sum(us) / len(us)))
print("new/old: %.3f" % (means["new"] / means["old"]))
if "old2" in means:
    print("new/old2: %.3f" % (means["new"] / means["old2"]))
EOF
echo "ab: the runs' output in $log_dir, their JSON in $results_dir"
