#!/bin/sh
# The conformance suite's scripted handler for the shell worker (clients/conformance/README.md): run as
#   bin/coordinate work --exec 'sh clients/conformance/shell-handler.sh' --permanent-exit-codes 3 ...
# with COORDINATE_CONFORMANCE_DIR naming a directory that keeps, per unit, how often this worker ran it.
# It reads the unit's data ({"script": [step, ...]}) on stdin and plays the step of this run. Needs jq.
set -eu

dir=${COORDINATE_CONFORMANCE_DIR:?set COORDINATE_CONFORMANCE_DIR to a directory for the run counters}
data=$(cat)
counter="$dir/$COORDINATE_SPEC.$COORDINATE_UNIT.runs"
run=$(cat "$counter" 2>/dev/null || echo 0)
echo $((run + 1)) > "$counter"

# Run r takes script[min(r, len-1)]; no script (or an empty one) is a plain finish.
step=$(printf '%s' "$data" | jq -c --argjson r "$run" \
  '(.script // []) as $s | if ($s | length) == 0 then {} else $s[[$r, ($s | length) - 1] | min] end')
field() { printf '%s' "$step" | jq -r "$1"; }

sleep_seconds=$(field '(.sleep_ms // 0) / 1000')
if [ "$sleep_seconds" != 0 ]; then
  sleep "$sleep_seconds" # a cancellation or a stop ends it: the worker signals this command's process group
fi

progress=$(field 'if .progress then "\(.progress[0]) \(.progress[1] // "")" else "" end')
if [ -n "$progress" ]; then
  echo "$progress" > "$COORDINATE_PROGRESS_FILE"
  sleep 1.5 # the worker reads the progress file about once a second while the command runs
fi

message=$(field '.message // "scripted failure"')
case "$(field '.outcome // "finish"')" in
  finish) field '.result // {"ok": true} | tojson' ;;
  fail) echo "$message" >&2; exit 1 ;;
  fail_permanent) echo "$message" >&2; exit 3 ;;
  retry_later) echo "retry_later has no shell equivalent: $message" >&2; exit 1 ;;
  hang) sleep 86400 ;;
  *) echo "unknown outcome in step $step" >&2; exit 1 ;;
esac
