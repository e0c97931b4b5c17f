"""Runs a program in a pseudo-terminal and plays a script of keystrokes, each sent once its prompt has appeared.

Usage: python3 pty-session.py <spec.json>, where spec is {"argv": [...], "env": {...}, "cwd": "...",
"steps": [{"expect": "text", "send": "keys"}, ...]}. Each step waits (on the terminal's output, no timer)
until `expect` appears after the previous match, with ANSI escapes removed, then writes `send`. After the
last step it reads to the end and prints {"code": exit code, "transcript": the output without escapes}
as JSON; if the program ends before an expected text appears, {"error": ..., "transcript": ...}.
Standard library only (pty, os, select), so it runs wherever python3 does: no node-pty, no native build.
"""

import fcntl
import json
import os
import pty
import re
import struct
import sys
import termios

spec = json.load(open(sys.argv[1], encoding="utf-8"))
pid, fd = pty.fork()
if pid == 0:
    os.chdir(spec["cwd"])
    os.execvpe(spec["argv"][0], spec["argv"], spec["env"])

# A wide terminal: a prompt's message is never wrapped across lines.
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 240, 0, 0))

ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[@-Z\\-_]")
raw = bytearray()


def text():
    return ANSI.sub("", raw.decode("utf-8", "replace")).replace("\r", "")


def read_some():
    try:
        data = os.read(fd, 65536)
    except OSError:  # EIO: the program ended and closed the terminal
        return False
    if not data:
        return False
    raw.extend(data)
    return True


def finish(result):
    print(json.dumps(result))
    sys.exit(0)


seen = 0
for step in spec["steps"]:
    want = step["expect"]
    while True:
        at = text().find(want, seen)
        if at >= 0:
            seen = at + len(want)
            break
        if not read_some():
            os.waitpid(pid, 0)
            finish({"error": f"the program ended before {want!r} appeared", "transcript": text()})
    os.write(fd, step["send"].encode("utf-8"))

while read_some():
    pass
_, status = os.waitpid(pid, 0)
finish({"code": os.waitstatus_to_exitcode(status), "transcript": text()})
