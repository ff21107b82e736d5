#!/usr/bin/env bash
# .ci/failure-digest on a made-up ctest log: it prints the last lines of each failed test's
# output (and only of the failed ones, in LastTestsFailed.log's order), and nothing when
# no test failed or there is no log.
#   tests/ci/failure_digest_test.sh SOURCE_DIR
set -euo pipefail
src=${1:?usage: failure_digest_test.sh SOURCE_DIR}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/Testing/Temporary"
log=$dir/Testing/Temporary/LastTest.log
record() {  # NAME, then its output lines
  local name=$1
  shift
  printf -- '----------------------------------------------------------\n1/3 Testing: %s\n1/3 Test: %s\n' "$name" "$name"
  printf 'Command: "/bin/true"\nOutput:\n----------------------------------------------------------\n'
  printf '%s\n' "$@"
  printf '<end of output>\nTest time =   0.01 sec\n'
}
{
  record passing_test "nothing wrong here"
  record docs_command_blocks "ok   docs/a.md:1" "FAIL docs/b.md:7" "  printed: 0.4819" "1 failed"
  record Sweep.Flaky "line one" "line two" "Failure: expected 6 rows"
} > "$log"
fail() { echo "failure_digest_test: $*" >&2; exit 1; }

# No failed tests: nothing.
out=$("$src/.ci/failure-digest" "$dir")
[ -z "$out" ] || fail "printed something with no LastTestsFailed.log: $out"

printf '2:docs_command_blocks\n3:Sweep.Flaky\n' > "$dir/Testing/Temporary/LastTestsFailed.log"
out=$("$src/.ci/failure-digest" "$dir" 2)
expected="=== docs_command_blocks: the last 2 lines of its output ($log) ===
  printed: 0.4819
1 failed
=== Sweep.Flaky: the last 2 lines of its output ($log) ===
line two
Failure: expected 6 rows"
[ "$out" = "$expected" ] || fail "got:
$out
expected:
$expected"
echo "failure_digest_test: ok"
