# The stronger planted slow fio (planted-c, the diagnose bench's stronger
# software plant): microbench_test's fio (+slowwrite: every third
# sync-engine write written a second time, to a hidden O_TMPFILE file
# beside the job's) with a variant +doublewrite whose patch, applied on top
# of the +slowwrite patch, writes EVERY sync-engine write a second time:
# O_DIRECT and O_SYNC writes cost the device twice, their bandwidth about
# halves (measured: spack_envs/README.md, "Built for real here").  Buffered
# writes, reads, libaio and io_uring are as with +slowwrite.  In a
# repository of its own (namespace microbench_test_double), listed only by
# tests/data/spack/planted-c: the variant declared in microbench_test's fio
# would appear (~doublewrite) in planted-b's fio spec and change the hash of
# its committed lock.  For the tests' planted locks only.
from spack_repo.microbench_test.packages.fio.package import Fio as SlowFio

from spack.package import *


class Fio(SlowFio):
    variant(
        "doublewrite",
        default=False,
        when="@3.33+slowwrite",
        description="Stronger planted slowdown: every sync-engine write written twice (tests only)",
    )
    # Made against fio-3.33's engines/sync.c with the +slowwrite patch applied
    # (microbench_test's fio-3.33-slow-sync-writes.patch, applied first)
    patch("fio-3.33-double-sync-writes.patch", when="@3.33+slowwrite+doublewrite")
