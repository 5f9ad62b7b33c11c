# A planted slow fio (issue 43): the project's fio with a variant +slowwrite
# whose patch makes every third write of a sync-engine thread (sync, psync,
# pvsync, pvsync2: fio's default is psync) be written a second time, to a
# hidden file beside the job's (O_TMPFILE, the same O_DIRECT and O_SYNC
# flags, the same offset), through raw system calls: O_DIRECT and O_SYNC
# writes cost the device a third more, and their bandwidth drops by a fifth
# to a third with one writer or many (measured: spack_envs/README.md, "Built
# for real here"); a buffered write's second copy into the page cache costs
# little.  fio counts each write once, Darshan does not see the second one,
# and reads are unchanged; libaio and io_uring writes are unchanged.  For
# the tests' planted locks only: no environment of spack_envs/ lists this
# repository.  The stronger plant, +doublewrite (a second patch on top of
# this one: EVERY sync-engine write written twice, O_DIRECT write bandwidth
# about halved; tests/data/spack/planted-c), is the fio of the repository
# microbench_test_double, a subclass of this one: a variant declared here
# would be in planted-b's fio spec (~doublewrite) and change its lock.
from spack_repo.microbench.packages.fio.package import Fio as MicrobenchFio

from spack.package import *


class Fio(MicrobenchFio):
    variant(
        "slowwrite",
        default=False,
        when="@3.33",
        description="Planted slowdown: every third sync-engine write written twice (tests only)",
    )
    # Made against the tag fio-3.33 of github.com/axboe/fio (engines/sync.c)
    patch("fio-3.33-slow-sync-writes.patch", when="@3.33+slowwrite")
