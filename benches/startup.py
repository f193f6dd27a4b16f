#!/usr/bin/env python3
"""Start-up and idle cost of the TUI, in a pseudo-terminal of 200x60.

For each run: launches `findings` on the embedded demo server (no base URL),
times launch to the first frame (the pane bar drawn) and to the first page
drawn (the status line's "N loaded"), then leaves it idle for a few seconds
and measures its CPU time and the bytes it writes meanwhile (no redraw: 0),
and quits with `q`.

Targets (issue 5): first frame at most 50 ms, first page at most 200 ms,
idle about 0% CPU with no redraw.

Usage: python3 benches/startup.py [--runs 5] [--idle 5] [--bin target/release/findings]
(after `cargo build --release`). Linux only (it reads /proc).
"""

import argparse
import codecs
import fcntl
import os
import pty
import re
import select
import signal
import statistics
import struct
import sys
import termios
import time

FIRST_FRAME = re.compile(r"Issues")
FIRST_PAGE = re.compile(r"\d+ loaded")
WIDTH, HEIGHT = 200, 60
CSI = re.compile(r"\x1b\[([0-9;?]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[^\[\]]")


class Screen:
    """Just enough of a terminal to read the text a frame leaves on screen:
    cursor moves (CSI H), clears (CSI J) and printed characters; colours
    and modes are skipped. Frames are drawn as diffs, so the text of the
    status line is only whole on the screen, never in the byte stream."""

    def __init__(self):
        self.rows = [[" "] * WIDTH for _ in range(HEIGHT)]
        self.row = self.col = 0
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.pending = ""

    def feed(self, data):
        text = self.pending + self.decoder.decode(data)
        # Keep an escape sequence cut by the end of the chunk for the next.
        cut = text.rfind("\x1b")
        if cut != -1 and not CSI.match(text, cut) and len(text) - cut < 64:
            text, self.pending = text[:cut], text[cut:]
        else:
            self.pending = ""
        pos = 0
        for m in CSI.finditer(text):
            self.put(text[pos : m.start()])
            pos = m.end()
            params, final = m.group(1), m.group(2)
            if final == "H":
                parts = [int(p) if p.isdigit() else 1 for p in (params or "1;1").split(";")] + [1]
                self.row, self.col = min(parts[0], HEIGHT) - 1, min(parts[1], WIDTH) - 1
            elif final == "J":
                self.rows = [[" "] * WIDTH for _ in range(HEIGHT)]
        self.put(text[pos:])

    def put(self, text):
        for ch in text:
            if ch == "\r":
                self.col = 0
            elif ch == "\n":
                self.row = min(self.row + 1, HEIGHT - 1)
            elif ch >= " " and self.col < WIDTH:
                self.rows[self.row][self.col] = ch
                self.col += 1

    def text(self):
        return "\n".join("".join(r) for r in self.rows)


def cpu_seconds(pid):
    """utime + stime of a process, in seconds."""
    with open(f"/proc/{pid}/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def read_until(fd, pattern, screen, deadline):
    """Reads from fd until pattern is on the screen; returns when, or None."""
    while time.monotonic() < deadline:
        if pattern.search(screen.text()):
            return time.monotonic()
        ready, _, _ = select.select([fd], [], [], 0.005)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return None
            if not chunk:
                return None
            screen.feed(chunk)
    return None


def drain(fd, seconds):
    """Reads whatever fd writes for `seconds`; returns the byte count."""
    total = 0
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return total
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return total
            if not chunk:
                return total
            total += len(chunk)


def one_run(binary, idle):
    env = {k: v for k, v in os.environ.items() if not k.startswith("FINDINGS_")}
    env.update({"TERM": "xterm-256color", "COLUMNS": "200", "LINES": "60"})
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(sys.stdout.fileno(), termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
        os.execve(binary, [binary], env)
    started = time.monotonic()
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
    screen = Screen()
    try:
        frame = read_until(fd, FIRST_FRAME, screen, started + 10)
        page = read_until(fd, FIRST_PAGE, screen, started + 10)
        if frame is None or page is None:
            raise RuntimeError("no frame or no page within 10 s; the screen:\n" + screen.text())
        # Let anything pending (the spinner's last tick) settle, then watch.
        drain(fd, 0.5)
        cpu_before = cpu_seconds(pid)
        idle_bytes = drain(fd, idle)
        idle_cpu = (cpu_seconds(pid) - cpu_before) / idle * 100
        os.write(fd, b"q")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            drain(fd, 0.05)
        else:
            raise RuntimeError("did not quit on q")
        return (frame - started) * 1000, (page - started) * 1000, idle_cpu, idle_bytes
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds idle per run")
    parser.add_argument("--bin", default=os.path.join(here, "..", "target", "release", "findings"))
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        sys.exit(f"startup.py: no binary at {binary}: run `cargo build --release` first")

    rows = [one_run(binary, args.idle) for _ in range(args.runs)]
    frames, pages, cpus, idle_bytes = zip(*rows)

    def line(what, values, unit, target):
        print(
            f"{what:<36} median {statistics.median(values):7.1f} {unit}"
            f"  (min {min(values):.1f}, max {max(values):.1f})  {target}"
        )

    print(f"{args.runs} runs, 200x60 pseudo-terminal, embedded demo server, {binary}")
    line("launch to first frame", frames, "ms", "target <= 50 ms")
    line("launch to first page drawn", pages, "ms", "target <= 200 ms")
    line(f"CPU while idle ({args.idle:g} s)", cpus, "% ", "target ~0 %")
    line("bytes written while idle", idle_bytes, "B ", "target 0 (no redraw)")


if __name__ == "__main__":
    main()
