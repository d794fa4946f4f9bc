#!/usr/bin/python3
"""One warm LibreOffice converter, driven over UNO.

Started by office-converter.ts. Launches its own headless soffice with its own profile folder,
connects to it over a named pipe, then converts documents one at a time. Requests arrive on stdin as
JSON lines {"id": n, "in": "/path/a.docx", "out": "/path/a.pdf", "nice": 0}; answers go to stdout as
{"id": n, "ok": true} or {"id": n, "ok": false, "error": "..."}. The first line written is
{"ready": true, "renice": bool} (or {"ready": false, "error": ...}). stdin closing ends soffice and
the bridge.

"nice" (optional) is the CPU niceness, above the bridge's own at start, that the whole process group
(soffice's every thread) runs the document at: a free account's document at 10, everyone else's at 0
(issue 29). It is only sent when the bridge said "renice": true, that is when it may go back down
from 10 to 0 (CAP_SYS_NICE), or the first free account's document would leave the converter slow
for everyone.

The bridge leads its own process group (the server starts it detached); soffice and its oosplash
wrapper stay in it. Whenever the bridge ends (stdin closed, SIGTERM, or the server gone: the kernel
sends SIGTERM when the parent dies), it ends that whole group, so no LibreOffice outlives the server.
"""
import ctypes
import json
import os
import signal
import subprocess
import sys
import time

import uno
from com.sun.star.beans import PropertyValue


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


# Hidden, read-only, no links or fields updated from outside, macros never run, no repair dialogs.
LOAD = (
    prop("Hidden", True),
    prop("ReadOnly", True),
    prop("UpdateDocMode", 0),  # com.sun.star.document.UpdateDocMode.NO_UPDATE
    prop("MacroExecutionMode", 0),  # com.sun.star.document.MacroExecMode.NEVER_EXECUTE
    prop("RepairPackage", False),
    prop("Silent", True),
)
STORE = (prop("FilterName", "writer_pdf_Export"),)


PR_SET_PDEATHSIG = 1


def watch_parent():
    """SIGTERM when the server's process ends, however it ends (a crash, SIGKILL)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except Exception:  # noqa: BLE001 - not Linux: stdin EOF still ends the bridge once it reads
        pass


def end_group():
    """Kills what is left of the bridge's own process group (a soffice.bin its oosplash left behind)."""
    if os.getpgrp() != os.getpid():
        return
    sys.stdout.flush()
    try:
        os.killpg(os.getpgrp(), signal.SIGKILL)  # the bridge included: it is ending anyway
    except OSError:
        pass


def can_renice():
    """True when this process may lower a niceness again (CAP_SYS_NICE where it counts): tried in a child."""
    try:
        pid = os.fork()
    except OSError:
        return False
    if pid == 0:
        try:
            base = os.getpriority(os.PRIO_PROCESS, 0)
            os.setpriority(os.PRIO_PROCESS, 0, base + 1)
            os.setpriority(os.PRIO_PROCESS, 0, base)
            os._exit(0)
        except BaseException:  # noqa: BLE001 - any refusal means no
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def set_group_nice(base, nice):
    """Every thread of every process in the bridge's group (Linux: PRIO_PGRP walks threads) at base + nice."""
    try:
        os.setpriority(os.PRIO_PGRP, os.getpgrp(), base + nice)
        return True
    except OSError:
        return False


def main():
    parent = os.getppid()
    base_nice = os.getpriority(os.PRIO_PROCESS, 0)
    renice = os.getpgrp() == os.getpid() and can_renice()
    nice_now = 0
    watch_parent()
    profile = sys.argv[1]
    pipe = sys.argv[2]
    soffice = sys.argv[3] if len(sys.argv) > 3 else "soffice"
    office = subprocess.Popen(
        [
            soffice,
            "-env:UserInstallation=" + uno.systemPathToFileUrl(profile),
            "--headless",
            "--invisible",
            "--nologo",
            "--nodefault",
            "--norestore",
            "--nolockcheck",
            "--accept=pipe,name=%s;urp;StarOffice.ComponentContext" % pipe,
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def stop(*_):
        try:
            office.terminate()
            office.wait(5)
        except Exception:
            office.kill()
        end_group()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGHUP, stop)
    # The server died before the handler was in place (or before PDEATHSIG was set).
    if os.getppid() != parent:
        stop()

    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    ctx = None
    deadline = time.time() + 60
    while time.time() < deadline:
        if office.poll() is not None:
            break
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            break
        except Exception:
            time.sleep(0.1)
    if ctx is None:
        say({"ready": False, "error": "LibreOffice did not start"})
        stop()
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    say({"ready": True, "pid": office.pid, "renice": renice})

    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
        wanted = req.get("nice", nice_now) if renice else nice_now
        if wanted != nice_now and set_group_nice(base_nice, wanted):
            nice_now = wanted
        doc = None
        try:
            t0 = time.perf_counter()
            doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(req["in"]), "_blank", 0, LOAD)
            if doc is None:
                raise RuntimeError("the document could not be opened")
            t1 = time.perf_counter()
            doc.storeToURL(uno.systemPathToFileUrl(req["out"]), STORE)
            t2 = time.perf_counter()
            say({"id": req["id"], "ok": True, "load_ms": round((t1 - t0) * 1000, 1), "export_ms": round((t2 - t1) * 1000, 1)})
        except Exception as e:  # noqa: BLE001 - every failure is reported to the caller
            say({"id": req["id"], "ok": False, "error": str(e)[:500]})
        finally:
            if doc is not None:
                try:
                    doc.close(True)
                except Exception:
                    pass
    stop()


if __name__ == "__main__":
    main()
