# Flowbench code-node runner. Executed once per Pyodide instance, before the memory image that every run is
# rolled back to is taken, so nothing a snippet does to this module (or anything else) outlives its run.
# JS calls run_snippet()/check_syntax() with plain strings and always gets one JSON string back: no JS object
# ever crosses into user code, and no Python exception ever escapes into JS.
import builtins
import io
import json
import linecache
import sys
import traceback
import warnings

# Preloaded here so they are part of the memory image: importing them in a snippet then costs nothing.
import base64, bisect, collections, copy, csv, dataclasses, datetime, decimal, enum, fractions, functools  # noqa: E401,F401
import hashlib, heapq, itertools, math, operator, random, re, statistics, string, textwrap, time, typing  # noqa: E401,F401
import unicodedata, urllib.parse, uuid  # noqa: E401,F401

FILENAME = "<code>"
RUNNER_FILENAME = "<flowbench-runner>"  # the filename worker.mjs compiles this file with
_dumps = json.dumps
_loads = json.loads
_exec = builtins.exec
_compile = builtins.compile
# The real builtins as of start-up: put back after the snippet, so a snippet that rebound builtins.isinstance
# & co. does not break the json/traceback code that reports its own result (the next run starts clean anyway).
_pristine_builtins = dict(builtins.__dict__)


class _Capture(io.TextIOBase):
    """sys.stdout/sys.stderr for one run: keeps the first `cap` characters, counts the rest."""

    def __init__(self, cap):
        self._parts = []
        self._size = 0
        self._dropped = 0
        self._cap = cap

    def writable(self):
        return True

    def isatty(self):
        return False

    @property
    def encoding(self):
        return "utf-8"

    @property
    def buffer(self):
        return _BytesSink(self)

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        room = self._cap - self._size
        if room >= len(s):
            self._parts.append(s)
            self._size += len(s)
        else:
            if room > 0:
                self._parts.append(s[:room])
                self._size += room
            self._dropped += len(s) - max(room, 0)
        return len(s)

    def flush(self):
        pass

    def text(self):
        return "".join(self._parts)


class _BytesSink(io.RawIOBase):
    """sys.stdout.buffer: some code writes bytes; decode them into the same capture."""

    def __init__(self, owner):
        self._owner = owner

    def writable(self):
        return True

    def write(self, b):
        self._owner.write(bytes(b).decode("utf-8", "replace"))
        return len(b)


def _user_frames_line(tb):
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == FILENAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _strip_runner_frames(tb):
    # Show the snippet's frames only (and whatever it called), not this runner's exec() call.
    while tb is not None and tb.tb_frame.f_code.co_filename != FILENAME:
        tb = tb.tb_next
    return tb


def _syntax_info(e):
    line = e.lineno if isinstance(getattr(e, "lineno", None), int) else 1
    col = e.offset if isinstance(getattr(e, "offset", None), int) and e.offset > 0 else 1
    msg = f"{type(e).__name__}: {e.msg}" if getattr(e, "msg", None) else f"{type(e).__name__}: {e}"
    return line, col, msg


def _compile_user(code):
    """compile() the snippet; returns (code_object, None) or (None, error_dict). Never runs anything."""
    try:
        with warnings.catch_warnings():
            # SyntaxWarnings (e.g. invalid escape sequences) are not errors; keep them out of the captured stderr.
            warnings.simplefilter("ignore")
            return _compile(code, FILENAME, "exec", dont_inherit=True), None
    except SyntaxError as e:  # includes IndentationError/TabError and null bytes
        line, col, msg = _syntax_info(e)
        return None, {"status": "syntax", "message": msg, "line": line, "column": col}
    except (ValueError, RecursionError, MemoryError, OverflowError) as e:
        # e.g. expressions nested too deeply for the compiler
        return None, {"status": "syntax", "message": f"{type(e).__name__}: {e}", "line": 1, "column": 1}


def check_syntax(code):
    try:
        _, err = _compile_user(code)
        if err is None:
            return '{"status":"ok","errors":[]}'
        return _dumps({"status": "ok", "errors": [{"line": err["line"], "column": err["column"], "message": err["message"]}]})
    except BaseException as e:  # KeyboardInterrupt at the deadline ends up here too
        return _dumps({"status": "interrupted" if isinstance(e, KeyboardInterrupt) else "internal", "message": repr(e)[:500]})


def _run(code, inputs_json, output_cap, result_cap, traceback_cap):
    compiled, err = _compile_user(code)
    if err is not None:
        return _dumps(err)
    linecache.cache[FILENAME] = (len(code), None, code.splitlines(True), FILENAME)

    out = _Capture(output_cap)
    errout = _Capture(output_cap)
    scope = {"__name__": "__main__", "__builtins__": builtins, "inputs": _loads(inputs_json)}
    saved = (sys.stdout, sys.stderr)
    sys.stdout, sys.stderr = out, errout
    failure = None
    try:
        _exec(compiled, scope)
    except SystemExit as e:
        # exit()/sys.exit() ends the script; a non-zero code is an error, like a process exit status.
        if e.code not in (None, 0):
            failure = e
    except (KeyboardInterrupt, MemoryError):
        raise
    except BaseException as e:
        failure = e
    finally:
        sys.stdout, sys.stderr = saved
        builtins.__dict__.clear()  # cheaper and safer than comparing (== could call the snippet's __eq__)
        builtins.__dict__.update(_pristine_builtins)

    envelope = {"stdout": out.text(), "stderr": errout.text(), "stdoutDropped": out._dropped, "stderrDropped": errout._dropped}
    if failure is not None:
        tb = _strip_runner_frames(failure.__traceback__)
        text = "".join(traceback.format_exception(type(failure), failure, tb))
        last = traceback.format_exception_only(type(failure), failure)[-1].strip()
        envelope.update(status="error", message=last[:2000], traceback=text[-traceback_cap:], line=_user_frames_line(failure.__traceback__))
        return _dumps(envelope)
    if "result" not in scope:
        envelope.update(status="missing")
        return _dumps(envelope)
    try:
        text = _dumps(scope["result"], allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as e:  # unserialisable type, NaN/Infinity, circular reference
        envelope.update(status="not_json", message=str(e)[:2000])
        return _dumps(envelope)
    except RecursionError:
        envelope.update(status="not_json", message="result is nested too deeply to serialise")
        return _dumps(envelope)
    if len(text) > result_cap:  # characters; JS re-checks the UTF-8 byte size
        envelope.update(status="too_large", size=len(text))
        return _dumps(envelope)
    envelope.update(status="ok", result=text)
    return _dumps(envelope)


def run_snippet(code, inputs_json, output_cap, result_cap, traceback_cap):
    try:
        return _run(code, inputs_json, output_cap, result_cap, traceback_cap)
    except KeyboardInterrupt:
        return '{"status":"interrupted"}'
    except MemoryError:
        return '{"status":"memory"}'
    except BaseException as e:
        # Anything raised while reporting (a hostile __str__, a recursion in a repr, ...).
        try:
            return _dumps({"status": "internal", "message": f"{type(e).__name__}: {e}"[:2000]})
        except BaseException:
            return '{"status":"internal","message":"the runner failed"}'


def _install_audit_hook():
    """Extra layer: refuse the imports and events that only serve to reach JS or the host.

    The real boundaries are in JS (worker.mjs) and in the host process flags; this gives obvious probes a clean
    Python error. Python cannot remove an audit hook, so the hook must not be switchable off from inside:
    - it looks up no global or builtin name (everything it uses is bound as a default: rebinding builtins.len
      or a module global changes nothing), and it only ever hashes/compares exact `str` objects (a str subclass
      with its own __eq__ could otherwise run snippet code inside the hook);
    - no snippet can get hold of the hook function (the gc walks that would find it are refused; a traceback
      through it shows a frame, which gives its code and immutable locals, not the function); even so,
      replacing __code__/__defaults__/__kwdefaults__ of any function defined in this runner is refused.
    """
    import types

    def hook(event, args,
             _blocked_modules=frozenset({"js", "pyodide_js", "ctypes", "_ctypes"}),
             _blocked_events=frozenset({"os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
                                        "subprocess.Popen", "gc.get_objects", "gc.get_referrers", "gc.get_referents"}),
             _guarded_attrs=frozenset({"__code__", "__defaults__", "__kwdefaults__"}),
             _function=types.FunctionType, _startswith=str.startswith, _str=str, _type=type, _len=len,
             _runner_file=RUNNER_FILENAME, _PermissionError=PermissionError, _ImportError=ImportError):
        if _type(event) is not _str:
            return
        if event == "import":
            name = args[0] if _len(args) > 0 else None
            if _type(name) is _str and (name in _blocked_modules or _startswith(name, "ctypes.") or _startswith(name, "pyodide_js.")):
                raise _ImportError(f"import of {name!r} is not allowed in the code sandbox")
        elif event in _blocked_events or _startswith(event, "ctypes."):
            raise _PermissionError(f"{event} is not allowed in the code sandbox")
        elif event == "object.__setattr__" and _len(args) >= 2 and _type(args[0]) is _function:
            attr = args[1]
            if _type(attr) is _str and attr in _guarded_attrs and args[0].__code__.co_filename == _runner_file:
                raise _PermissionError(f"changing the sandbox runner's {attr} is not allowed")

    sys.addaudithook(hook)


def _neutralise_pyodide():
    """Drop the Python-side handles on Pyodide's JS internals (the JS side unregisters the js modules)."""
    for name in [m for m in sys.modules if m in ("js", "pyodide_js") or m.startswith("pyodide_js.")]:
        del sys.modules[name]
    try:
        import pyodide._package_loader as package_loader

        package_loader.loadedPackages = {}  # was a JsProxy of the JS API's package table
    except Exception:
        pass
    try:
        import pyodide.webloop as webloop

        def _no_timers(*_args, **_kwargs):
            raise RuntimeError("asyncio timers are not available in the code sandbox")

        webloop.scheduleCallback = _no_timers  # was a JsProxy of a JS setTimeout wrapper
    except Exception:
        pass
    import gc

    gc.collect()  # frees the JsLoader objects that still held the module proxies


def _check_disabled(disabled):
    """Fail closed: worker.mjs removed these from CPython's builtin table; make sure no route still loads them."""
    import _imp
    import importlib.machinery as machinery

    for name in list(sys.modules):
        if name in disabled or name == "ctypes" or name.startswith("ctypes."):
            del sys.modules[name]
    for name in disabled:
        try:
            module = _imp.create_builtin(machinery.ModuleSpec(name, machinery.BuiltinImporter))
        except ImportError:
            module = None
        if _imp.is_builtin(name) or module is not None:
            raise RuntimeError(f"could not disable the builtin module {name}")


def finish_setup(disabled_builtins):
    """Called from JS after the js modules are unregistered; the audit hook goes last (it blocks gc walks)."""
    _check_disabled(frozenset(disabled_builtins))
    _neutralise_pyodide()
    import os

    os.chdir("/tmp")
    os.environ.pop("_", None)  # the worker script's host path
    _install_audit_hook()
