"""usage: exit-status.py N COMMAND...: runs COMMAND (its output passes
through) and exits 0 only if it exited with status N, else 1 with a note."""
import subprocess
import sys

want = int(sys.argv[1])
rc = subprocess.run(sys.argv[2:]).returncode
if rc != want:
    print("exit-status.py: %s exited with %d, expected %d" %
          (sys.argv[2], rc, want), file=sys.stderr)
    sys.exit(1)
