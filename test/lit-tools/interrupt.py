#!/usr/bin/env python3
"""interrupt.py SECONDS SIGNAL OUTDIR [--after=NAME | --after-kernels=N] [--ignore-int] -- CMD...:
starts CMD, sends it SIGNAL (TERM, INT or HUP) after SECONDS, counted from when OUTDIR/NAME first
exists (--after) or from when attn-compile's staging directory beside OUTDIR holds N kernels
(--after-kernels): a fixed delay from the start races with a machine's speed. Then waits for CMD,
and reports how it ended and what OUTDIR holds: every name in it, and any temporary (a hidden
.NAME.tmp-* file or .NAME.attn-staging-* directory) left in it or beside it.

CMD starts with SIGINT at its default action, as from a terminal (lit's workers ignore SIGINT, and
a child inherits that), or ignored with --ignore-int, as a shell starts a background job; SIGHUP
and SIGTERM at theirs (nohup ignores SIGHUP)."""
import os
import re
import signal
import subprocess
import sys
import time

seconds, sig, outdir = float(sys.argv[1]), getattr(signal, "SIG" + sys.argv[2]), sys.argv[3]
dash = sys.argv.index("--")
opts = sys.argv[4:dash]
after = [a.split("=", 1)[1] for a in opts if a.startswith("--after=")]
kernels = [int(a.split("=", 1)[1]) for a in opts if a.startswith("--after-kernels=")]
sigint = signal.SIG_IGN if "--ignore-int" in opts else signal.SIG_DFL
cmd = sys.argv[dash + 1:]


def start_dispositions():
    # SIGHUP and SIGTERM at their default actions too: a suite started under nohup ignores SIGHUP,
    # which the child would inherit (and attn-compile keeps an ignored signal ignored).
    signal.signal(signal.SIGINT, sigint)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                        preexec_fn=start_dispositions)


def staged_kernels():
    """The kernels (NAME.a) in the staging directories beside OUTDIR."""
    parent, base = os.path.split(os.path.abspath(outdir))
    staging = [os.path.join(parent, n) for n in os.listdir(parent)
               if n.startswith("." + base + ".attn-staging-")] if os.path.isdir(parent) else []
    return sum(len([f for f in os.listdir(d) if f.endswith(".a")]) for d in staging
               if os.path.isdir(d))


def wait_for(ready, what):
    deadline = time.time() + 600
    while not ready() and proc.poll() is None:
        if time.time() > deadline:
            proc.kill()
            sys.exit(f"interrupt.py: no {what} after 600 s")
        time.sleep(0.05)


if after:
    wait_for(lambda: os.path.exists(os.path.join(outdir, after[0])), f"{after[0]} in {outdir}")
if kernels:
    wait_for(lambda: staged_kernels() >= kernels[0], f"{kernels[0]} staged kernels for {outdir}")
time.sleep(seconds)
running = proc.poll() is None
proc.send_signal(sig)
rc = proc.wait()
print("interrupted while running" if running else "finished before the signal")
# Ended by the signal (as when run by hand), or with exit code 1 (as seen under lit, cause not
# pinned down): either way not a success, which is what the test asserts with the files left.
print("stopped, not successful" if rc != 0 else "exit code 0")
temporary = re.compile(r"^\..*(\.tmp-|\.attn-staging-)")
names = sorted(os.listdir(outdir)) if os.path.isdir(outdir) else []
parent = os.path.dirname(os.path.abspath(outdir))
beside = sorted(os.listdir(parent)) if os.path.isdir(parent) else []
leftovers = [n for n in names if temporary.match(n)] + \
    [os.path.join("..", n) for n in beside if temporary.match(n)]
print("temporaries left:", leftovers if leftovers else "none")
print("files:", " ".join(names) if names else "none")
