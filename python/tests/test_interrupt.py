"""Ctrl-C during a long computation: the library's work stops and Python raises
KeyboardInterrupt within a couple of seconds, with no panic message, and the package answers
again afterwards. Each case runs in a child process that is sent SIGINT."""

import signal
import subprocess
import sys
import time

import pytest

# The child prints "started" just before the long call, "interrupted" when KeyboardInterrupt
# reaches it, then a short exact answer asked after the stop (the library still works).
CHILD = """
import sys
import ladders
game = ladders.Game.builtin("milton-bradley")
print("started", flush=True)
try:
    {call}
except KeyboardInterrupt:
    print("interrupted", flush=True)
    print(ladders.Game.builtin("tiny").expected_turns(), flush=True)
    sys.exit(0)
print("finished", flush=True)
sys.exit(1)
"""

# Long calls, each far longer than the test waits: a trillion games (hours), and an exact race
# of a hundred seats certified to 200 digits.
LONG_CALLS = {
    "simulate": "game.simulate(games=10**12, seed=1)",
    "race": "ladders.race([game] * 100, digits=200)",
}


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_ctrl_c_stops_a_long_computation_with_keyboard_interrupt(name):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(call=LONG_CALLS[name])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "started"
        # Well inside the call (it has released the GIL and is working).
        time.sleep(1.0)
        assert child.poll() is None, "the long call ended before it was interrupted"
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
        waited = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert out.split() == ["interrupted", "4"], (out, err)
    assert child.returncode == 0, err
    assert "panic" not in err.lower(), err
    assert waited < 2.5, f"KeyboardInterrupt {waited:.1f} s after Ctrl-C"
