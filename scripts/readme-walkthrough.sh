#!/usr/bin/env bash
# Runs README.md's "Your first plugin, step by step" exactly as written: the ```sh blocks between
# <!-- walkthrough:start --> and <!-- walkthrough:end --> are taken from the README (never copied
# here), joined in order and run in one bash from the repository's folder. Any failing step fails
# the run, and so does a file the walkthrough leaves in the checkout (it works in a temporary
# folder: its mktemp lands in this script's own, removed at the end), and so does a process the
# walkthrough's own last step leaves running (its servers pick free ports, so runs never collide).
set -uo pipefail
cd "$(dirname "$0")/.."

checkout_before=$(git status --porcelain --untracked-files=all 2>/dev/null)

work=$(mktemp -d)
script="$work/walkthrough.sh"
{
  echo 'set -euo pipefail'
  echo 'set -x'
  awk '
    /<!-- walkthrough:start -->/ { inside = 1; next }
    /<!-- walkthrough:end -->/ { inside = 0 }
    inside && /^```sh$/ { block = 1; next }
    inside && block && /^```$/ { block = 0; print ""; next }
    inside && block { print }
  ' README.md
} >"$script"

steps=$(grep -c . "$script")
if [ "$steps" -lt 10 ]; then
  echo "readme-walkthrough: found no walkthrough in README.md" >&2
  exit 1
fi

# The walkthrough's `mktemp -d` makes its folder in here, so removing $work removes it too.
export TMPDIR="$work"
# Whatever the CLI remembers (log heads, freshness) stays in here too, never in the home folder.
export XDG_STATE_HOME="$work/state"
unset DATA_DIR PORT REGISTRY_URL REGISTRY_TOKEN
# The steps run in a session of their own (setsid: its id is steps_pid). Their `set -m` gives each
# background server a process group of its own inside that session, so what is left of it is
# found by session, never by name.
session_processes() { ps -o pid=,pgid=,args= --sid "$steps_pid" 2>/dev/null; }
stop_session() {
  local group
  for group in $(ps -o pgid= --sid "$steps_pid" 2>/dev/null | sort -u); do kill -- -"$group" 2>/dev/null; done
}
setsid bash "$script" &
steps_pid=$!
( sleep 300; echo "readme-walkthrough: timed out after 300 s" >&2; kill -- -"$steps_pid" 2>/dev/null ) &
watchdog=$!
status=0
wait "$steps_pid" || status=$?
kill "$watchdog" 2>/dev/null
# The last step stopped the servers and waited for them; allow a moment for a straggler to exit.
for _ in 1 2 3 4 5; do
  [ -z "$(session_processes)" ] && break
  sleep 1
done
left=$(session_processes)
stop_session
sleep 1
rm -rf "$work"
if [ "$status" -ne 0 ]; then
  echo "readme-walkthrough: FAILED (exit $status)" >&2
  exit 1
fi
if [ -n "$left" ]; then
  echo "readme-walkthrough: FAILED: the walkthrough's cleanup left processes running:" >&2
  echo "$left" >&2
  exit 1
fi
checkout_after=$(git status --porcelain --untracked-files=all 2>/dev/null)
if [ "$checkout_after" != "$checkout_before" ]; then
  echo "readme-walkthrough: FAILED: the walkthrough changed the checkout:" >&2
  diff <(echo "$checkout_before") <(echo "$checkout_after") >&2
  exit 1
fi
echo "readme-walkthrough: every step passed"
