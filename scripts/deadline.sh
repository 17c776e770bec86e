#!/usr/bin/env bash
# Runs a command with a deadline; a command still running at it has the native stacks of its
# whole process tree printed (gdb, where the machine has it) and is then killed, so that a hang
# in CI ends in seconds with the threads that hung on record, not at CI's own limit with
# nothing printed (a pyopencl file that hung in the model took a whole CI run to its 90
# minutes once, 2026-11-28). Exit status: the command's, or 124 when the deadline killed it.
# usage: scripts/deadline.sh SECONDS COMMAND [ARG...]
set -uo pipefail
limit="$1"
shift
"$@" &
pid=$!
descendants() {
  local p
  for p in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    echo "$p"
    descendants "$p"
  done
}
start=$SECONDS
while kill -0 "$pid" 2>/dev/null; do
  if [ $((SECONDS - start)) -ge "$limit" ]; then
    echo "deadline: '$*' still running after ${limit}s; its processes' stacks:" >&2
    tree="$pid $(descendants "$pid")"
    for p in $tree; do
      echo "== pid $p: $(tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | cut -c1-200)" >&2
      if command -v gdb >/dev/null; then
        timeout 60 gdb -p "$p" -batch -ex "thread apply all bt 30" 2>/dev/null |
          grep -E '^(Thread|#)' | cut -c1-220 >&2
      fi
    done
    for p in $tree; do kill -9 "$p" 2>/dev/null; done
    wait "$pid" 2>/dev/null
    exit 124
  fi
  sleep 1
done
wait "$pid"
