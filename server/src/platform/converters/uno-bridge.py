#!/usr/bin/python3
"""One warm LibreOffice converter, driven over UNO.

Started by office-converter.ts. Launches its own headless soffice with its own profile folder,
connects to it over a named pipe, then converts documents one at a time. Requests arrive on stdin as
JSON lines {"id": n, "in": "/path/a.docx", "out": "/path/a.pdf"}; answers go to stdout as
{"id": n, "ok": true} or {"id": n, "ok": false, "error": "..."}. The first line written is
{"ready": true} (or {"ready": false, "error": ...}). stdin closing ends soffice and the bridge.

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


def main():
    parent = os.getppid()
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
    say({"ready": True, "pid": office.pid})

    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
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
