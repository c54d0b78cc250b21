"""Runs a command under a pseudo-terminal (stdin, stdout and stderr are a TTY), answers the first
"[y/N]" question with argv[1] (or closes input when argv[1] is "-"), and prints {"output", "code"}
as JSON. Used by the CLI tests for the confirmation prompt and the progress line."""
import json
import os
import pty
import select
import sys

answer, command = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
output = b""
answered = False
while True:
    ready, _, _ = select.select([fd], [], [], 30)
    if not ready:
        break
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    output += chunk
    if not answered and b"[y/N]" in output:
        os.write(fd, b"\x04" if answer == "-" else (answer + "\n").encode())
        answered = True
_, status = os.waitpid(pid, 0)
print(json.dumps({"output": output.decode("utf-8", "replace"), "code": os.waitstatus_to_exitcode(status)}))
