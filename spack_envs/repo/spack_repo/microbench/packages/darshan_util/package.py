# The builtin darshan-util recipe, plus Darshan 3.5.0 (the common pin since
# issue 43), which it does not declare (its newest release is 3.4.7).
from spack_repo.builtin.packages.darshan_util.package import DarshanUtil as BuiltinDarshanUtil

from spack.package import *


class DarshanUtil(BuiltinDarshanUtil):
    # GitHub's archive of the tag 3.5.0 of github.com/darshan-hpc/darshan
    # (commit 741b740d..., 2025-10-16; its ChangeLog opens "Darshan-3.5.0").
    # The release tarball of web.cels.anl.gov cannot be made again from a
    # clone; the archive can:
    #   git archive --format=tar --prefix=darshan-3.5.0/ 3.5.0 | gzip -cn | sha256sum
    # The archive has no configure in darshan-util/: the builtin's autotools
    # dependencies (@3.4.0:) let Spack's autoreconf phase make it.
    version(
        "3.5.0",
        sha256="76eac5a3ff556476ef8df53aa61851756bf6dcab59f5b92bb307abfdcbcd7f36",
        url="https://github.com/darshan-hpc/darshan/archive/refs/tags/3.5.0.tar.gz",
    )
