"""Run a command under the seccomp filter of systemd's ``MemoryDenyWriteExecute=yes``.

``python tests/support/mdwe.py CMD ARGS…`` loads, through libseccomp, the filter systemd
(v252, ``seccomp_memory_deny_write_execute``) installs for that setting — ``mmap`` of a
page both writable and executable, ``mprotect``/``pkey_mprotect`` adding execute and
``shmat`` with ``SHM_EXEC`` fail with EPERM — then execs the command, which inherits the
filter. A test starts the hub, the node and the bridge this way to see that Python and
its C extensions (numpy, cffi's argon2 bindings, pydantic-core …) run without writable
code, as they must under the units. A script on purpose (no import of the project), so
it runs before any of the project is imported.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_CMP_MASKED_EQ = 7
PROT_WRITE, PROT_EXEC = 0x2, 0x4
SHM_EXEC = 0o100000


class _ArgCmp(ctypes.Structure):
    _fields_ = (
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    )


def deny_write_execute() -> None:
    """Install the filter on this process (and so on what it execs)."""
    lib = ctypes.CDLL("libseccomp.so.2", use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = (ctypes.c_uint32,)
    lib.seccomp_syscall_resolve_name.argtypes = (ctypes.c_char_p,)
    lib.seccomp_rule_add_array.argtypes = (
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(_ArgCmp),
    )
    lib.seccomp_load.argtypes = (ctypes.c_void_p,)
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    if not ctx:
        raise OSError("seccomp_init failed")
    deny = 0x00050000 | errno.EPERM  # SCMP_ACT_ERRNO(EPERM)
    rules = (
        ("mmap", PROT_WRITE | PROT_EXEC, PROT_WRITE | PROT_EXEC),
        ("mprotect", PROT_EXEC, PROT_EXEC),
        ("pkey_mprotect", PROT_EXEC, PROT_EXEC),
        ("shmat", SHM_EXEC, SHM_EXEC),
    )
    for name, mask, value in rules:
        nr = lib.seccomp_syscall_resolve_name(name.encode())
        if nr < 0:
            continue  # not on this architecture
        cmp = _ArgCmp(2, SCMP_CMP_MASKED_EQ, mask, value)
        if lib.seccomp_rule_add_array(ctx, deny, nr, 1, ctypes.byref(cmp)) < 0:
            raise OSError(f"seccomp rule for {name} refused")
    if lib.seccomp_load(ctx) < 0:
        raise OSError("seccomp_load failed")


def main(argv: list[str]) -> None:
    deny_write_execute()
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    main(sys.argv[1:])
