#!/usr/bin/env bash
# Runs every example of docs/reference.md, in the order of the page, against a running app, and checks
# that each reply, assignment, event, assimilated result, dead-letter record and HTTP answer is the one the
# page documents.
#
#   B=127.0.0.1:9092 HTTP=http://127.0.0.1:8080 docs/verify-reference.sh
#
# B is the bootstrap server, HTTP the query server (a URL, host:port, or just a port). Use a fresh dev
# instance (bin/coordinate dev --data-dir /tmp/some-new-dir): the script starts by destroying the
# namespace "ref" anyway, so it can be run again, but attempt ids are only those printed in the page
# (1, 2, ...) in a namespace that has never been used. Needs kcat, curl, grep; exits 1 on the first
# answer that is not as documented, 0 when all are.
set -uo pipefail

B="${B:-127.0.0.1:9092}"
HTTP="${HTTP:-http://127.0.0.1:8080}"
if [[ "$HTTP" =~ ^[0-9]+$ ]]; then HTTP="http://127.0.0.1:$HTTP"; fi
if [[ "$HTTP" != http://* && "$HTTP" != https://* ]]; then HTTP="http://$HTTP"; fi
HTTP="${HTTP%/}"
NS=ref
DOC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/reference.md"
WAIT="${WAIT:-30}"   # seconds to wait for one answer
TRUNC="${TRUNC:-600}" # characters of each answer to print

work="$(mktemp -d /tmp/verify-reference.XXXXXX)"
consumers=()
cleanup() {
  for pid in "${consumers[@]}"; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
  [[ -n "${KEEP:-}" ]] || rm -rf "$work"
}
trap cleanup EXIT

checks=0
# in_doc TEXT: the page must show this text (skipped with NODOC=1, while writing the page).
in_doc() {
  [[ -n "${NODOC:-}" ]] || grep -qF -- "$1" "$DOC" || fail "example not in the page: $1"
}
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
ok() {
  checks=$((checks + 1))
}

# --- the ids the page shows, and the ones this run got -------------------------------------------------
declare -A DOC_ID=([A1]=1 [A2]=2 [A3]=3 [A4]=4 [A5]=5 [A6]=6 [A7]=8)
declare -A ID=()

# Replaces %A1%... by this run's ids (or, with "doc", by the page's).
render() {
  local text="$1" which="${2:-run}" key value
  for key in "${!DOC_ID[@]}"; do
    if [[ "$which" == doc ]]; then value="${DOC_ID[$key]}"; else value="${ID[$key]:-${DOC_ID[$key]}}"; fi
    text="${text//%$key%/$value}"
  done
  printf '%s' "$text"
}

# --- consumers of the output topics, started at the end of each topic before anything is sent ----------
consume() { # topic file format
  local topic="$1" file="$2" format="$3"
  kcat -b "$B" -t "$topic" -C -o end -u -f "$format" >"$work/$file" 2>"$work/$file.err" &
  consumers+=($!)
}
consume coordinate.replies replies '%k %s\n'
consume coordinate.assignments assignments '%k %s\n'
consume coordinate.events events '%k %s\n'
consume coordinate.chained chained '%k %s\n'
consume coordinate.dead-letter dead-letter '%k %s %h\n'
consume coordinate.results results '%k %s\n'
for file in replies assignments events chained dead-letter results; do
  topic="coordinate.$file"
  partitions=$(kcat -b "$B" -L -t "$topic" 2>/dev/null | grep -c 'partition [0-9]*,')
  [[ "$partitions" -gt 0 ]] || fail "cannot read topic $topic at $B"
  for _ in $(seq 1 $((WAIT * 10))); do
    [[ $(grep -c 'Reached end' "$work/$file.err") -ge "$partitions" ]] && break
    sleep 0.1
  done
  [[ $(grep -c 'Reached end' "$work/$file.err") -ge "$partitions" ]] || fail "consumer of $topic did not start"
done

# --- helpers --------------------------------------------------------------------------------------------

# send 'JSON' [key]: the doc's `echo 'ref|JSON' | kcat -b $B -t coordinate.commands -P -K'|'`.
send() {
  local json key="${2:-$NS}"
  json="$(render "$1")"
  if [[ ${#1} -lt 2000 ]]; then
    in_doc "$key|$(render "$1" doc)"
  fi
  mark
  printf '%s|%s\n' "$key" "$json" | kcat -b "$B" -t coordinate.commands -P -K'|' || fail "kcat could not send"
  echo ">> $key|${json:0:300}"
}

# wait_line file pattern: waits until a line of the file contains the fixed string; prints the last one.
wait_line() {
  local file="$1" pattern="$2"
  for _ in $(seq 1 $((WAIT * 10))); do
    if grep -qF -- "$pattern" "$work/$file"; then
      grep -F -- "$pattern" "$work/$file" | tail -1
      return 0
    fi
    sleep 0.1
  done
  fail "nothing with $pattern on $file within ${WAIT}s"
}

# expect LABEL TEXT pattern...: every fixed-string pattern must be in TEXT.
expect() {
  local label="$1" text="$2" pattern
  shift 2
  for pattern in "$@"; do
    pattern="$(render "$pattern")"
    if [[ "$pattern" == '!'* ]]; then
      [[ "$text" != *"${pattern:1}"* ]] || fail "$label: unexpected ${pattern:1} in: $text"
    else
      [[ "$text" == *"$pattern"* ]] || fail "$label: expected $pattern in: $text"
    fi
    ok
  done
}

# expect_reply REQUEST_ID pattern...: the reply (key doc) to the command with this request_id.
expect_reply() {
  local id="$1" line
  shift
  line="$(wait_line replies "\"request_id\":\"$id\"")" || exit 1
  echo "<< reply   ${line:0:$TRUNC}"
  [[ "$line" == "doc "* ]] || fail "reply $id: key is not doc: $line"
  expect "reply $id" "$line" "$@"
  LAST="$line"
}

# expect_assignment REQUEST_ID pattern...
expect_assignment() {
  local id="$1" line
  shift
  line="$(wait_line assignments "\"request_id\":\"$id\"")" || exit 1
  echo "<< assign  ${line:0:$TRUNC}"
  expect "assignment $id" "$line" "$@"
  LAST="$line"
}

# expect_result UNIT pattern...: the assimilated record (coordinate.results) of this unit of the namespace.
expect_result() {
  local unit="$1" line
  shift
  line="$(wait_line results "\"namespace\":\"$NS\",\"work_spec_name\":\"vote\",\"work_unit_name\":\"$unit\"")" || exit 1
  echo "<< result  ${line:0:$TRUNC}"
  [[ "$line" == "$NS "* ]] || fail "result $unit: key is not $NS: $line"
  expect "result $unit" "$line" "$@"
}

# mark: remembers how many events and dead-letter records there are before a command is sent, so that
# expect_event and expect_dead_letter only look at what came after it.
declare -A MARK=([events]=0 [dead-letter]=0)
mark() {
  MARK[events]=$(wc -l <"$work/events")
  MARK[dead-letter]=$(wc -l <"$work/dead-letter")
}

# wait_all LABEL FILE pattern...: waits until one line of the file holds every pattern; prints it.
wait_all() {
  local label="$1" file="$2" line pattern found
  shift 2
  local patterns=()
  for pattern in "$@"; do patterns+=("$(render "$pattern")"); done
  for _ in $(seq 1 $((WAIT * 10))); do
    while IFS= read -r line; do
      found=1
      for pattern in "${patterns[@]}"; do
        [[ "$line" == *"$pattern"* ]] || { found=; break; }
      done
      if [[ -n "$found" ]]; then
        printf '%s\n' "$line"
        return 0
      fi
    done < <(tail -n +$((${MARK[$file]:-0} + 1)) "$work/$file" | grep -F -- "${patterns[0]}")
    sleep 0.1
  done
  echo "FAIL: $label: no record on $file within ${WAIT}s with all of: ${patterns[*]}" >&2
  echo "  last records:" >&2
  tail -3 "$work/$file" | cut -c1-800 >&2
  return 1
}

# expect_event TYPE pattern...: an event batch holding an event of this type and every pattern.
expect_event() {
  local type="$1" line
  shift
  line="$(wait_all "event $type" events "\"type\":\"$type\"" "$@")" || exit 1
  echo "<< events  ${line:0:$TRUNC}"
  checks=$((checks + 1 + $#))
}

# expect_dead_letter CODE pattern...: a dead-letter record with this error.code header and every pattern.
expect_dead_letter() {
  local code="$1" line
  shift
  line="$(wait_all "dead-letter $code" dead-letter "error.code=$code" "$@")" || exit 1
  echo "<< dead    ${line:0:$TRUNC}"
  checks=$((checks + 1 + $#))
}

# expect_http PATH STATUS pattern...: curl -s $HTTP/PATH.
expect_http() {
  local path="$1" status="$2" body code
  shift 2
  in_doc "http://127.0.0.1:8080$(render "$path" doc)"
  body="$(curl -s -w '\n%{http_code}' "$HTTP$(render "$path")")" || fail "curl $path failed"
  code="${body##*$'\n'}"
  body="${body%$'\n'*}"
  echo "<< GET $(render "$path") -> $code ${body:0:$TRUNC}"
  [[ "$code" == "$status" ]] || fail "GET $path: status $code, expected $status: $body"
  expect "GET $path" "$body" "$@"
  LAST="$body"
}

# no_reply REQUEST_ID: waits a little and checks that no reply came (a command whose reply_to is unreadable).
no_reply() {
  sleep 2
  ! grep -qF "\"request_id\":\"$1\"" "$work/replies" || fail "unexpected reply to $1"
  ok
}

# capture NAME UNIT: the attempt id that the last assignment gave for this unit.
capture() {
  local name="$1" unit="$2" id
  id="$(grep -o "\"attempt_id\":\"[^\"]*\",\"work_spec_name\":\"[^\"]*\",\"work_unit_name\":\"$unit\"" <<<"$LAST" \
    | head -1 | cut -d'"' -f4)"
  [[ -n "$id" ]] || fail "no attempt for $unit in: $LAST"
  ID[$name]="$id"
  [[ "$id" == "${DOC_ID[$name]}" ]] || echo "   (attempt $unit is $id here, ${DOC_ID[$name]} in the page: not a fresh namespace)"
}

step() { echo; echo "== $*"; }

# --- start clean ----------------------------------------------------------------------------------------
step "clean start: destroy namespace $NS"
mark
printf '%s|%s\n' "$NS" '{"command":"destroy_namespace","namespace":"ref","request_id":"clean","reply_to":"doc"}' \
  | kcat -b "$B" -t coordinate.commands -P -K'|'
expect_reply clean '"ok":true'
expect_http /api/namespaces/ref/summary 404 '"code":"no_such_namespace"'

# --- set_work_spec --------------------------------------------------------------------------------------
step set_work_spec
send '{"command":"set_work_spec","namespace":"ref","request_id":"spec-parse","reply_to":"doc","work_spec":{"name":"parse"}}'
expect_reply spec-parse '"ok":true' '"name":"parse"' '"counts":{}'
send '{"command":"set_work_spec","namespace":"ref","request_id":"spec-fetch","reply_to":"doc","work_spec":{"name":"fetch","then":"parse","nice":5,"max_getwork":10}}'
expect_reply spec-fetch '"ok":true' '"name":"fetch"' '"data":{"name":"fetch","then":"parse","nice":5,"max_getwork":10}' \
  '"weight":15' '"max_attempts_returned":10' '"next_work_spec_name":"parse"' '"paused":false' '"next_continuous":null'
expect_event work_spec_set '"work_spec_name":"fetch","created":true' "\"namespace\":\"$NS\"" '"time":"'
expect_http /api/namespaces/ref/work-specs/fetch 200 '"name":"fetch"' '"weight":15' '"counts":{}'
send '{"command":"set_work_spec","namespace":"ref","request_id":"spec-noname","reply_to":"doc","work_spec":{"then":"parse"}}'
expect_reply spec-noname '"ok":false' '"code":"no_work_spec_name"'
send '{"command":"set_work_spec","namespace":"ref","request_id":"spec-badname","reply_to":"doc","work_spec":{"name":7}}'
expect_reply spec-badname '"ok":false' '"code":"bad_work_spec_name"'
send '{"command":"set_work_spec","namespace":"ref","request_id":"spec-rename","reply_to":"doc","work_spec_name":"fetch","work_spec":{"name":"fetch2"}}'
expect_reply spec-rename '"ok":false' '"code":"changed_name"'
send '{"command":"set_work_spec","namespace":"ref","request_id":"spec-badkey","reply_to":"doc","work_spec":{"name":"x","priority":"high"}}'
expect_reply spec-badkey '"ok":false' '"code":"bad_command"' 'work spec key \"priority\" must be a number'
expect_dead_letter bad_command '"request_id":"spec-badkey"' 'error.message=work spec key "priority" must be a number' \
  'source.topic=coordinate.commands'
expect_http /api/namespaces/ref/work-specs 200 '"name":"fetch"' '"name":"parse"' '!"name":"x"' '!"name":"fetch2"'

# --- set_work_spec_meta ---------------------------------------------------------------------------------
step set_work_spec_meta
send '{"command":"set_work_spec_meta","namespace":"ref","request_id":"meta-1","reply_to":"doc","work_spec_name":"fetch","meta":{"priority":10,"max_running":5,"max_retries":3,"continuous":true}}'
expect_reply meta-1 '"ok":true' '"priority":10' '"max_running":5' '"max_retries":3' '"continuous":false' \
  '"can_be_continuous":false' '"data":{"name":"fetch","then":"parse","nice":5,"max_getwork":10}'
expect_event work_spec_set '"work_spec_name":"fetch","created":false'
expect_http /api/namespaces/ref/work-specs/fetch 200 '"priority":10' '"max_running":5'
send '{"command":"set_work_spec_meta","namespace":"ref","request_id":"meta-2","reply_to":"doc","work_spec_name":"nope","meta":{"paused":true}}'
expect_reply meta-2 '"ok":false' '"code":"no_such_work_spec"' 'no work spec \"nope\"'

# --- add_work_units -------------------------------------------------------------------------------------
step add_work_units
send '{"command":"add_work_units","namespace":"ref","request_id":"add-1","reply_to":"doc","work_spec_name":"fetch","work_units":[{"name":"u1","data":{"url":"https://example.com/1"}},{"name":"u2","priority":10},{"name":"u3","delay":3600},{"name":"u4","not_before":"2030-01-01T00:00:00Z"},{"data":{"anonymous":true}}]}'
expect_reply add-1 '"ok":true' '"added":5' '"work_unit_names":["u1","u2","u3","u4","'
expect_event unit_added '"type":"unit_added","work_spec_name":"fetch","work_unit_name":"u1","status":"available","priority":0}' \
  '"work_unit_name":"u3","status":"delayed","priority":0,"not_before":"' \
  '"work_unit_name":"u4","status":"delayed","priority":0,"not_before":"2030-01-01T00:00:00.000Z"'
expect_http '/api/namespaces/ref/work-specs/fetch/work-units?limit=3' 200 '"name":"u1","status":"available","priority":0,"data":{"url":"https://example.com/1"},"not_before":null,"active_attempt":null' \
  '"next":"u2"'
expect_http '/api/namespaces/ref/work-specs/fetch/work-units?previous=u2' 200 '"name":"u3","status":"delayed"' '"name":"u4"' '"next":null'
expect_http /api/namespaces/ref/work-specs/fetch 200 '"counts":{"delayed":2,"available":3}'
send '{"command":"add_work_units","namespace":"ref","request_id":"add-2","reply_to":"doc","work_spec_name":"nope","work_units":[{"name":"u1"}]}'
expect_reply add-2 '"ok":false' '"code":"no_such_work_spec"'
send '{"command":"add_work_units","namespace":"ref","request_id":"add-3","reply_to":"doc","work_spec_name":"fetch","work_units":[{"name":"c1","parent":"u1"}]}'
expect_reply add-3 '"ok":false' '"code":"bad_command"' 'must be an object {'
expect_dead_letter bad_command '"request_id":"add-3"' 'error.message="parent" must be an object {"work_spec_name": string, "work_unit_name": string}'

# too_large: 100001 units in one command (the page builds it with seq and printf)
big="$(printf '{"command":"add_work_units","namespace":"ref","request_id":"add-big","reply_to":"doc","work_spec_name":"fetch","work_units":[%s{}]}' "$(printf '{},%.0s' $(seq 100000))")"
in_doc "printf 'ref|{\"command\":\"add_work_units\",\"namespace\":\"ref\",\"request_id\":\"add-big\",\"reply_to\":\"doc\",\"work_spec_name\":\"fetch\",\"work_units\":[%s{}]}\\n' \"\$(printf '{},%.0s' \$(seq 100000))\""
mark
printf '%s|%s\n' "$NS" "$big" | kcat -b "$B" -t coordinate.commands -P -K'|' || fail "kcat could not send add-big"
echo ">> ref|{...add-big: 100001 units...}"
expect_reply add-big '"ok":false' '"code":"too_large"' '100001 units in one command; at most 100000'
expect_dead_letter too_large '"request_id":"add-big"'
expect_http /api/namespaces/ref/work-specs/fetch 200 '"counts":{"delayed":2,"available":3}'
send '{"command":"add_work_units","namespace":"ref","request_id":"add-keep","reply_to":"doc","work_spec_name":"fetch","if_exists":"keep","work_units":[{"name":"u1","data":{"url":"https://example.com/other"}}]}'
expect_reply add-keep '"ok":true' '"result":{"added":[],"replaced":[],"kept":["u1"],"work_unit_names":["u1"]}'
expect_http /api/namespaces/ref/work-specs/fetch/work-units/u1 200 '{"name":"u1","status":"available","priority":0,"data":{"url":"https://example.com/1"},'

# --- prioritize_work_units ------------------------------------------------------------------------------
step prioritize_work_units
send '{"command":"prioritize_work_units","namespace":"ref","request_id":"prio-1","reply_to":"doc","work_spec_name":"fetch","query":{"names":["u1"]},"priority":20}'
expect_reply prio-1 '"ok":true' '"result":{"prioritized":1}'
expect_event unit_updated '"type":"unit_updated","work_spec_name":"fetch","work_unit_name":"u1","status":"available","priority":20}'
send '{"command":"prioritize_work_units","namespace":"ref","request_id":"prio-2","reply_to":"doc","work_spec_name":"fetch","query":{"statuses":["delayed"]},"adjustment":-5}'
expect_reply prio-2 '"ok":true' '"result":{"prioritized":2}'
expect_http '/api/namespaces/ref/work-specs/fetch/work-units?name=u1,u3' 200 '"name":"u1","status":"available","priority":20' \
  '"name":"u3","status":"delayed","priority":-5'
send '{"command":"prioritize_work_units","namespace":"ref","request_id":"prio-3","reply_to":"doc","work_spec_name":"fetch","query":{}}'
expect_reply prio-3 '"ok":false' '"code":"bad_command"' 'give \"priority\" or \"adjustment\"'

# --- request_attempts -----------------------------------------------------------------------------------
step request_attempts
send '{"command":"request_attempts","namespace":"ref","request_id":"req-1","reply_to":"doc","worker":"w1","count":2,"lifetime":600}'
expect_reply req-1 '"ok":true' '"result":{"namespace":"ref","worker":"w1","request_id":"req-1","attempts":[' \
  '"work_spec_name":"fetch","work_unit_name":"u1","data":{"url":"https://example.com/1"},"start_time":"' \
  '"work_unit_name":"u2"'
expect_assignment req-1 'w1 {"namespace":"ref","worker":"w1","request_id":"req-1","attempts":[{"attempt_id":"' \
  '"work_unit_name":"u1"' '"work_unit_name":"u2"'
capture A1 u1
capture A2 u2
expect_event attempt_started '"type":"worker_updated","worker":"w1","active":true' \
  '"type":"attempt_started","work_spec_name":"fetch","work_unit_name":"u1","attempt_id":"%A1%","worker":"w1","status":"pending","expiration_time":"' \
  '"type":"unit_status_changed","previous_status":"available","work_spec_name":"fetch","work_unit_name":"u1","status":"pending"'
expect_http /api/namespaces/ref/work-specs/fetch/work-units/u1 200 '"name":"u1","status":"pending"' '"active_attempt":"%A1%"' \
  '"attempts":[{"attempt_id":"%A1%","work_spec_name":"fetch","work_unit_name":"u1","worker":"w1","status":"pending"' \
  '"end_time":null,"active":true}]' '"parent":null,"predecessor":null,"children":{"parked":[],"open":[],"closed":[],"counts":{"parked":0,"open":0,"closed":0}},"heirs":[],"heir_count":0}'
expect_http /api/namespaces/ref/attempts/%A2% 200 '"attempt_id":"%A2%"' '"work_unit_name":"u2"' '"status":"pending"' '"active":true'
send '{"command":"request_attempts","namespace":"ref","request_id":"req-2","reply_to":"doc","worker":"w1","work_specs":["parse"]}'
expect_reply req-2 '"ok":true' '"attempts":[]'
expect_assignment req-2 '"attempts":[]'
send '{"command":"request_attempts","namespace":"ref","request_id":"req-3","reply_to":"doc","count":1}'
expect_reply req-3 '"ok":false' '"code":"bad_command"' 'missing required field \"worker\"'
expect_dead_letter bad_command '"request_id":"req-3"' 'error.message=missing required field "worker"'

# --- renew_attempt --------------------------------------------------------------------------------------
step renew_attempt
send '{"command":"renew_attempt","namespace":"ref","request_id":"renew-1","reply_to":"doc","attempt_id":"%A1%","extend":1800,"data":{"url":"https://example.com/1","progress":0.5}}'
expect_reply renew-1 '"ok":true' '"attempt_id":"%A1%"' '"status":"pending"' '"data":{"url":"https://example.com/1","progress":0.5}' '"active":true'
expect_event attempt_renewed '"type":"attempt_renewed","work_spec_name":"fetch","work_unit_name":"u1","attempt_id":"%A1%","worker":"w1","status":"pending","expiration_time":"'
expect_http /api/namespaces/ref/work-specs/fetch/work-units/u1 200 '"data":{"url":"https://example.com/1","progress":0.5}'

# --- finish_attempt (with then chaining) ----------------------------------------------------------------
step finish_attempt
send '{"command":"finish_attempt","namespace":"ref","request_id":"finish-1","reply_to":"doc","attempt_id":"%A1%","data":{"output":{"p1":{"page":1},"p2":{"page":2}}}}'
expect_reply finish-1 '"ok":true' '"attempt_id":"%A1%"' '"status":"finished"' '"data":{"output":{"p1":{"page":1},"p2":{"page":2}}}' \
  '"end_time":"' '"active":true'
expect_event attempt_finished '"type":"attempt_finished","work_spec_name":"fetch","work_unit_name":"u1","attempt_id":"%A1%","worker":"w1","status":"finished"}' \
  '"previous_status":"pending","work_spec_name":"fetch","work_unit_name":"u1","status":"finished"'
line="$(wait_line chained '"work_spec_name":"parse"')" || exit 1
echo "<< chained $line"
expect chained "$line" 'ref {"command":"add_work_units","namespace":"ref","work_spec_name":"parse","work_units":[{"name":"p1","data":{"page":1},"priority":0},{"name":"p2","data":{"page":2},"priority":0}]}'
expect_event unit_added '"work_spec_name":"parse","work_unit_name":"p1","status":"available"'
expect_http /api/namespaces/ref/work-specs/parse/work-units 200 '"name":"p1","status":"available","priority":0,"data":{"page":1}' '"name":"p2"'
expect_http /api/namespaces/ref/work-specs/fetch/work-units/u1 200 '"status":"finished"' '"data":{"output":{"p1":{"page":1},"p2":{"page":2}}}'
send '{"command":"finish_attempt","namespace":"ref","request_id":"finish-2","reply_to":"doc","attempt_id":"999"}'
expect_reply finish-2 '"ok":false' '"code":"no_such_attempt"' 'no attempt \"999\"'

# --- fail_attempt ---------------------------------------------------------------------------------------
step fail_attempt
send '{"command":"fail_attempt","namespace":"ref","request_id":"fail-1","reply_to":"doc","attempt_id":"%A2%","data":{"traceback":"HTTP 500"}}'
expect_reply fail-1 '"ok":true' '"attempt_id":"%A2%"' '"status":"failed"' '"data":{"traceback":"HTTP 500"}'
expect_event attempt_failed '"type":"attempt_failed","work_spec_name":"fetch","work_unit_name":"u2","attempt_id":"%A2%","worker":"w1","status":"failed"}' \
  '"previous_status":"pending","work_spec_name":"fetch","work_unit_name":"u2","status":"failed"'
expect_http '/api/namespaces/ref/work-specs/fetch/work-units?status=failed' 200 '"name":"u2","status":"failed","priority":10,"data":{"traceback":"HTTP 500"}' '"active_attempt":"%A2%"' \
  '"attempt_count":1,"last_error":"HTTP 500","next_attempt_at":null,"retrying":false}'
send '{"command":"fail_attempt","namespace":"ref","request_id":"fail-2","reply_to":"doc","attempt_id":"%A1%"}'
expect_reply fail-2 '"ok":false' '"code":"not_pending"' 'to be pending to fail it, but it is finished'

# --- reset_work_units -----------------------------------------------------------------------------------
step reset_work_units
send '{"command":"reset_work_units","namespace":"ref","request_id":"reset-1","reply_to":"doc","work_spec_name":"fetch","query":{"statuses":["failed"]}}'
expect_reply reset-1 '"ok":true' '"result":{"reset":1}'
expect_event unit_status_changed '"previous_status":"failed","work_spec_name":"fetch","work_unit_name":"u2","status":"available","priority":10}'
expect_http /api/namespaces/ref/work-specs/fetch/work-units/u2 200 '"status":"available"' '"active_attempt":null' '"attempt_id":"%A2%"' '"status":"failed"' '"active":false' \
  '"attempt_count":0,"last_error":"HTTP 500","next_attempt_at":null,"retrying":false'

# --- retry_attempt --------------------------------------------------------------------------------------
step retry_attempt
send '{"command":"request_attempts","namespace":"ref","request_id":"req-4","reply_to":"doc","worker":"w1"}'
expect_reply req-4 '"ok":true' '"work_unit_name":"u2"'
capture A3 u2
send '{"command":"retry_attempt","namespace":"ref","request_id":"retry-1","reply_to":"doc","attempt_id":"%A3%","delay":60,"data":{"traceback":"timeout, try later"}}'
expect_reply retry-1 '"ok":true' '"attempt_id":"%A3%"' '"status":"retryable"' '"active":false'
expect_event attempt_retried '"type":"attempt_retried","work_spec_name":"fetch","work_unit_name":"u2","attempt_id":"%A3%","worker":"w1","status":"retryable"}' \
  '"previous_status":"pending","work_spec_name":"fetch","work_unit_name":"u2","status":"delayed","priority":10,"not_before":"'
expect_http /api/namespaces/ref/work-specs/fetch/work-units/u2 200 '"status":"delayed"' '"not_before":"' '"active_attempt":null' \
  '"attempt_count":1,"last_error":"timeout, try later","next_attempt_at":"' '"retrying":true'
expect_http '/api/namespaces/ref/work-specs/fetch/work-units?status=retrying' 200 '{"work_units":[{"name":"u2","status":"delayed"' \
  '"last_error":"timeout, try later"' '"retrying":true}],"next":null}'

# --- expire_attempt -------------------------------------------------------------------------------------
step expire_attempt
send '{"command":"request_attempts","namespace":"ref","request_id":"req-5","reply_to":"doc","worker":"w2","work_specs":["parse"],"count":10}'
expect_reply req-5 '"ok":true' '"work_unit_name":"p1"' '"work_unit_name":"p2"'
capture A4 p1
capture A5 p2
send '{"command":"expire_attempt","namespace":"ref","request_id":"expire-1","reply_to":"doc","attempt_id":"%A4%"}'
expect_reply expire-1 '"ok":true' '"attempt_id":"%A4%"' '"status":"expired"' '"active":false'
expect_event attempt_expired '"type":"attempt_expired","work_spec_name":"parse","work_unit_name":"p1","attempt_id":"%A4%","worker":"w2","status":"expired"}' \
  '"previous_status":"pending","work_spec_name":"parse","work_unit_name":"p1","status":"available"'
expect_http /api/namespaces/ref/work-specs/parse/work-units/p1 200 '"status":"available"' '"active_attempt":null' '"status":"expired"' \
  '"attempt_count":1,"last_error":"lease expired","next_attempt_at":null,"retrying":false'
send '{"command":"expire_attempt","namespace":"ref","request_id":"expire-2","reply_to":"doc","attempt_id":"%A4%"}'
expect_reply expire-2 '"ok":true' '"status":"expired"'

# a lease that runs out: lifetime 1 second, then renew and finish are refused
send '{"command":"request_attempts","namespace":"ref","request_id":"req-6","reply_to":"doc","worker":"w3","work_specs":["parse"],"lifetime":1}'
expect_reply req-6 '"ok":true' '"work_unit_name":"p1"'
capture A6 p1
sleep 2.5
expect_event attempt_expired '"attempt_id":"%A6%","worker":"w3","status":"expired"}'
expect_http /api/namespaces/ref/attempts/%A6% 200 '"status":"expired"' '"active":false'
send '{"command":"renew_attempt","namespace":"ref","request_id":"renew-2","reply_to":"doc","attempt_id":"%A6%","extend":600}'
expect_reply renew-2 '"ok":false' '"code":"lost_lease"' 'is no longer active'
send '{"command":"finish_attempt","namespace":"ref","request_id":"finish-3","reply_to":"doc","attempt_id":"%A6%"}'
expect_reply finish-3 '"ok":false' '"code":"not_pending"' 'to be pending to finish it, but it is expired'

# --- continuous work specs ------------------------------------------------------------------------------
step "request_attempts on a continuous spec"
send '{"command":"set_work_spec","namespace":"ref","request_id":"spec-tick","reply_to":"doc","work_spec":{"name":"tick","continuous":true,"interval":300}}'
expect_reply spec-tick '"ok":true' '"continuous":true' '"can_be_continuous":true' '"interval":300'
send '{"command":"request_attempts","namespace":"ref","request_id":"req-7","reply_to":"doc","worker":"w3","work_specs":["tick"]}'
expect_reply req-7 '"ok":true' '"work_spec_name":"tick","work_unit_name":"1' '"data":{}'
expect_http /api/namespaces/ref/work-specs/tick 200 '"next_continuous":"' '"pending_count":1' '"counts":{"pending":1}'

# --- worker_heartbeat -----------------------------------------------------------------------------------
step worker_heartbeat
send '{"command":"worker_heartbeat","namespace":"ref","request_id":"hb-1","reply_to":"doc","worker":"host-a","mode":"idle","data":{"hostname":"host-a","cpus":8}}'
expect_reply hb-1 '"ok":true' '"name":"host-a","parent":null,"children":[],"active":true,"mode":"idle","data":{"hostname":"host-a","cpus":8}' '"expired":false'
send '{"command":"worker_heartbeat","namespace":"ref","request_id":"hb-2","reply_to":"doc","worker":"w2","parent":"host-a","mode":"run","data":{"pid":4242},"expire":600}'
expect_reply hb-2 '"ok":true' '"name":"w2","parent":"host-a"' '"mode":"run"' '"active_attempts":["%A5%"]'
expect_event worker_updated '"type":"worker_updated","worker":"w2","active":true,"parent":"host-a"}'
expect_http /api/namespaces/ref/workers/host-a 200 '"children":["w2"]' '"child_attempts":["%A5%"]' '"active_attempts":[]'
expect_http /api/namespaces/ref/workers 200 '"name":"host-a"' '"name":"w1"' '"name":"w2"' '"name":"w3"' '"next":null'
send '{"command":"worker_heartbeat","namespace":"ref","request_id":"hb-3","reply_to":"doc","worker":"w9","parent":"w9"}'
expect_reply hb-3 '"ok":false' '"code":"bad_command"' 'a worker cannot be its own parent'

# --- deactivate_worker ----------------------------------------------------------------------------------
step deactivate_worker
send '{"command":"deactivate_worker","namespace":"ref","request_id":"deact-1","reply_to":"doc","worker":"w1"}'
expect_reply deact-1 '"ok":true' '"name":"w1"' '"active":false' '"attempts":["%A1%","%A2%","%A3%"]'
expect_event worker_updated '"type":"worker_updated","worker":"w1","active":false}'
expect_http /api/namespaces/ref/workers/w1 200 '"active":false'
send '{"command":"deactivate_worker","namespace":"ref","request_id":"deact-2","reply_to":"doc","worker":"nobody"}'
expect_reply deact-2 '"ok":false' '"code":"no_such_worker"'

# --- delete_work_units ----------------------------------------------------------------------------------
step delete_work_units
send '{"command":"delete_work_units","namespace":"ref","request_id":"del-1","reply_to":"doc","work_spec_name":"fetch","query":{"statuses":["delayed"],"limit":2}}'
expect_reply del-1 '"ok":true' '"result":{"deleted":2}'
expect_event unit_deleted '{"type":"unit_deleted","work_spec_name":"fetch","work_unit_name":"u2"}' '{"type":"unit_deleted","work_spec_name":"fetch","work_unit_name":"u3"}'
expect_http /api/namespaces/ref/work-specs/fetch/work-units/u3 404 '"code":"no_such_work_unit"'
expect_http /api/namespaces/ref/summary 200 '"namespace":"ref"' '"work_specs":[{"name":"fetch","counts":{"delayed":1,"available":1,"finished":1},"oldest_available_since":"' '{"name":"tick","counts":{"pending":1},"oldest_available_since":null,"oldest_available_age_seconds":null}'

# --- delete_work_spec -----------------------------------------------------------------------------------
step delete_work_spec
send '{"command":"delete_work_spec","namespace":"ref","request_id":"delspec-1","reply_to":"doc","work_spec_name":"tick"}'
expect_reply delspec-1 '"ok":true' '"result":{"deleted":"tick"}'
expect_event work_spec_deleted '{"type":"work_spec_deleted","work_spec_name":"tick"}'
expect_http /api/namespaces/ref/work-specs/tick 404 '"code":"no_such_work_spec"'

# --- finish_attempts -------------------------------------------------------------------------------------
step finish_attempts
send '{"command":"finish_attempts","namespace":"ref","request_id":"finish-many","reply_to":"doc","attempts":[{"attempt_id":"%A5%","data":{"words":412}},{"attempt_id":"%A1%"},{"attempt_id":"999"}]}'
expect_reply finish-many '"ok":true' '"result":{"finished":2,"errors":[{"attempt_id":"999","code":"no_such_attempt","message":"no attempt \"999\""}]}'
expect_event attempt_finished '"type":"attempt_finished","work_spec_name":"parse","work_unit_name":"p2","attempt_id":"%A5%","worker":"w2","status":"finished"}' \
  '"previous_status":"pending","work_spec_name":"parse","work_unit_name":"p2","status":"finished"'
expect_http /api/namespaces/ref/work-specs/parse/work-units/p2 200 '"status":"finished"' '"data":{"words":412}' '"active_attempt":"%A5%"'
send '{"command":"finish_attempts","namespace":"ref","request_id":"finish-many-2","reply_to":"doc","attempts":[{"attempt_id":"%A5%"},{"id":"7"}]}'
expect_reply finish-many-2 '"ok":false' '"code":"bad_command"' 'each item of \"attempts\" needs an \"attempt_id\" string'

# --- cancel_work_units (replication) ---------------------------------------------------------------------
step cancel_work_units
send '{"command":"set_work_spec","namespace":"ref","request_id":"spec-vote","reply_to":"doc","work_spec":{"name":"vote","min_quorum":2,"target_nresults":3,"retention":86400}}'
expect_reply spec-vote '"ok":true' '"data":{"name":"vote","min_quorum":2,"target_nresults":3,"retention":86400}' \
  '"pending_count":0,"replication":{"min_quorum":2,"target_nresults":3,"max_error_results":3,"max_total_results":10,"max_success_results":6,"delay_bound":null,"validator":"exact"},"retention":86400}'
send '{"command":"set_work_spec","namespace":"ref","request_id":"spec-vote-bad","reply_to":"doc","work_spec":{"name":"vote","min_quorum":3,"target_nresults":2}}'
expect_reply spec-vote-bad '"ok":false' '"code":"bad_command","message":"Expected target_nresults >= min_quorum, but target_nresults is 2 and min_quorum 3"'
send '{"command":"add_work_units","namespace":"ref","request_id":"add-vote","reply_to":"doc","work_spec_name":"vote","work_units":[{"name":"v1"},{"name":"v2"}]}'
expect_reply add-vote '"ok":true' '"added":2'
send '{"command":"cancel_work_units","namespace":"ref","request_id":"cancel-1","reply_to":"doc","work_spec_name":"vote","query":{"names":["v1"]}}'
expect_reply cancel-1 '"ok":true' '"result":{"cancelled":1}'
expect_event unit_assimilated '{"type":"unit_status_changed","previous_status":"available","work_spec_name":"vote","work_unit_name":"v1","status":"failed","priority":0},{"type":"unit_assimilated","work_spec_name":"vote","work_unit_name":"v1","round":1,"error_mask":16}]}'
expect_result v1 '"time":"' '"round":1,"error_mask":16,"replicas":[]}' '!canonical_result'
expect_http /api/namespaces/ref/work-specs/vote/work-units/v1 200 '"name":"v1","status":"failed","priority":0,"data":{"traceback":"replicas: cancelled","error_mask":16}' \
  '"replication":{"round":1,"min_quorum":2,"target_nresults":3,"needed":0,"error_mask":16,"canonical_attempt_id":null,"assimilated_at":"' \
  '"replicas":[]},"purge_at":"'
expect_http /api/namespaces/ref/work-specs/vote/work-units/v2 200 '"status":"available"' '"needed":3' '!purge_at'
# an ordinary spec: a running attempt reports its progress, then the spec's units are cancelled
send '{"command":"set_work_spec","namespace":"ref","request_id":"spec-crawl","reply_to":"doc","work_spec":{"name":"crawl"}}'
expect_reply spec-crawl '"ok":true'
send '{"command":"add_work_units","namespace":"ref","request_id":"add-crawl","reply_to":"doc","work_spec_name":"crawl","work_units":[{"name":"c1"},{"name":"c2"}]}'
expect_reply add-crawl '"ok":true' '"added":2'
send '{"command":"request_attempts","namespace":"ref","request_id":"req-crawl","reply_to":"doc","worker":"w5","work_specs":["crawl"]}'
expect_assignment req-crawl '"work_spec_name":"crawl","work_unit_name":"c1"'
capture A7 c1
send '{"command":"renew_attempt","namespace":"ref","request_id":"renew-crawl","reply_to":"doc","attempt_id":"%A7%","progress":{"fraction":0.25,"message":"page 3 of 12"}}'
expect_reply renew-crawl '"ok":true' '"attempt_id":"%A7%"' '"status":"pending"' '"progress":{"fraction":0.25,"message":"page 3 of 12","time":"'
expect_event attempt_progress '{"type":"attempt_renewed","work_spec_name":"crawl","work_unit_name":"c1","attempt_id":"%A7%","worker":"w5","status":"pending","expiration_time":"' \
  '{"type":"attempt_progress","work_spec_name":"crawl","work_unit_name":"c1","attempt_id":"%A7%","worker":"w5","status":"pending","expiration_time":"' \
  '"fraction":0.25,"message":"page 3 of 12"}]}'
send '{"command":"cancel_work_units","namespace":"ref","request_id":"cancel-2","reply_to":"doc","work_spec_name":"crawl"}'
expect_reply cancel-2 '"ok":true' '"result":{"cancelled":2}'
expect_event attempt_cancelled '{"type":"attempt_cancelled","work_spec_name":"crawl","work_unit_name":"c1","attempt_id":"%A7%","worker":"w5","status":"cancelled"},{"type":"unit_status_changed","previous_status":"pending","work_spec_name":"crawl","work_unit_name":"c1","status":"cancelled","priority":0},{"type":"unit_status_changed","previous_status":"available","work_spec_name":"crawl","work_unit_name":"c2","status":"cancelled","priority":0}]}'
in_doc "kcat -b \$B -t coordinate.assignments -C -e -q -o beginning -f '%k %s\n' | tail -1"
notice="$(wait_line assignments "\"cancelled\":[\"$(render %A7%)\"]")" || exit 1
echo "<< assign  $notice"
expect "cancel notice" "$notice" 'w5 {"namespace":"ref","worker":"w5","cancelled":["%A7%"]}'
send '{"command":"finish_attempt","namespace":"ref","request_id":"finish-crawl","reply_to":"doc","attempt_id":"%A7%"}'
expect_reply finish-crawl '"ok":false' '"code":"cancelled","message":"attempt %A7% was cancelled"'
expect_http /api/namespaces/ref/work-specs/crawl/work-units/c1 200 '"name":"c1","status":"cancelled"' '"active_attempt":"%A7%"' \
  '"attempts":[{"attempt_id":"%A7%","work_spec_name":"crawl","work_unit_name":"c1","worker":"w5","status":"cancelled"' \
  '"progress":{"fraction":0.25,"message":"page 3 of 12","time":"' '"active":true}]'

# --- bad input: dead-letter -----------------------------------------------------------------------------
step "bad input"
send '{"command":"launch","namespace":"ref","request_id":"bad-1","reply_to":"doc"}'
expect_reply bad-1 '"ok":false' '"code":"unknown_command"' 'unknown command \"launch\"'
expect_dead_letter unknown_command '"request_id":"bad-1"' 'source.topic=coordinate.commands' 'source.partition=' 'source.offset='
send '{"command":"deactivate_worker","namespace":"ref","request_id":"bad-2","reply_to":"doc","worker":"w2"}' other
expect_reply bad-2 '"ok":false' '"code":"namespace_mismatch"'
expect_dead_letter namespace_mismatch 'other {"command":"deactivate_worker"' '"request_id":"bad-2"'
expect_http /api/namespaces/ref/workers/w2 200 '"active":true'
in_doc "echo 'ref|{\"command\":\"finish_attempt\",\"reply_to\":\"doc\",\"request_id\":\"bad-3\"' |"
mark
echo 'ref|{"command":"finish_attempt","reply_to":"doc","request_id":"bad-3"' | kcat -b "$B" -t coordinate.commands -P -K'|'
expect_dead_letter malformed_json '"request_id":"bad-3"' 'error.message=value is not JSON'
no_reply bad-3

# --- HTTP -----------------------------------------------------------------------------------------------
step HTTP
expect_http /api/namespaces 200 '{"namespaces":[' '"ref"'
expect_http /api/namespaces/ref/work-units 404 '"code":"not_found"'
expect_http '/api/namespaces/ref/work-specs/fetch/work-units?status=bogus' 400 '"code":"bad_request"'
expect_http /api/namespaces/nowhere/summary 404 '"code":"no_such_namespace"'
expect_http /api/namespaces/ref/attempts/12345 404 '"code":"no_such_attempt"'
expect_http /health 200 '{"status":"RUNNING"}'
body="$(curl -s "$HTTP/metrics")"
in_doc "curl -s http://127.0.0.1:8080/metrics | grep '^http_server_requests_seconds_count.*route=\"/health\"'"
echo "<< GET /metrics -> $(grep '^http_server_requests_seconds_count.*route="/health"' <<<"$body")"
expect "GET /metrics" "$body" 'http_server_requests_seconds_count{method="GET",route="/health",status="200"}' 'jvm_memory_used_bytes'
# post BODY [TYPE]: the page's `curl -s -X POST -H 'Content-Type: TYPE' .../commands -d 'BODY'` (TYPE: JSON by
# default; none: curl's own, a form's); prints the answer and its status.
post() {
  local type=(-H 'Content-Type: application/json') shown="-X POST -H 'Content-Type: application/json' "
  if [[ "${2:-}" == none ]]; then
    type=()
    shown="-X POST "
  fi
  in_doc "${shown}http://127.0.0.1:8080/api/namespaces/ref/commands -d '$1'"
  POST="$(curl -s -w '\n%{http_code}' -X POST ${type[@]+"${type[@]}"} "$HTTP/api/namespaces/ref/commands" -d "$1")"
  echo "<< POST $1 -> ${POST//$'\n'/ }"
}
# post_keyed KEY BODY: the same with the page's `-H 'Idempotency-Key: KEY'`.
post_keyed() {
  in_doc "-X POST -H 'Content-Type: application/json' http://127.0.0.1:8080/api/namespaces/ref/commands -H 'Idempotency-Key: $1' -d '$2'"
  POST="$(curl -s -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' "$HTTP/api/namespaces/ref/commands" \
    -H "Idempotency-Key: $1" -d "$2")"
  echo "<< POST ($1) $2 -> ${POST//$'\n'/ }"
}
post '{"command":"request_attempts","worker":"w4","work_specs":["parse"],"request_id":"http-1"}'
expect "POST request_attempts" "$POST" '{"request_id":"http-1","ok":true,"result":{"namespace":"ref","worker":"w4","request_id":"http-1","attempts":[' '"work_unit_name":"p1"' $'\n200'
first="$POST"
post_keyed http-1 '{"command":"request_attempts","worker":"w4","work_specs":["parse"]}'
[[ "$POST" == "$first" ]] || fail "POST repeated with Idempotency-Key: expected the first answer $first, got $POST"
ok
post_keyed http-2 '{"command":"request_attempts","worker":"w4","request_id":"http-3"}'
expect "POST key mismatch" "$POST" '{"error":{"code":"request_id_mismatch","message":"Idempotency-Key \"http-2\" differs from the body'"'"'s request_id \"http-3\""}}' $'\n400'
post '{"command":"finish_attempt","attempt_id":"999"}'
expect "POST finish_attempt" "$POST" '{"request_id":null,"ok":false,"error":{"code":"no_such_attempt"' $'\n422'
post '{"command":"finish_attempt","namespace":"other"}'
expect "POST mismatch" "$POST" '{"error":{"code":"namespace_mismatch"' $'\n400'
post '{"command":"finish_attempt","attempt_id":"999"}' none
expect "POST as a form" "$POST" '{"error":{"code":"unsupported_media_type","message":"POST requests need the header \"Content-Type: application/json\", got \"application/x-www-form-urlencoded\""}' $'\n415'

# --- destroy_namespace ----------------------------------------------------------------------------------
step destroy_namespace
send '{"command":"destroy_namespace","namespace":"ref","request_id":"destroy-1","reply_to":"doc"}'
expect_reply destroy-1 '"ok":true' '"result":{"destroyed":"ref"}'
expect_event namespace_destroyed '{"type":"namespace_destroyed"}'
expect_http /api/namespaces/ref/summary 404 '"code":"no_such_namespace"'

echo
echo "OK: $checks checks passed"
