# The builtin libfabric recipe, plus libfabric 2.6.0 (the common pin since
# issue 43) and 2.5.1 (the release before it: the planted bisection of the
# tests moves libfabric and fabtests from one to the other), which it does
# not declare (its newest release is 2.2.0).
from spack_repo.builtin.packages.libfabric.package import Libfabric as BuiltinLibfabric

from spack.package import *


class Libfabric(BuiltinLibfabric):
    # GitHub's archive of the tag v2.6.0 (commit d1eb5e99..., 2026-06-19).
    # The release tarball (libfabric-2.6.0.tar.bz2, with a generated
    # configure) cannot be made again from a clone; the archive can, in a
    # clone of github.com/ofiwg/libfabric:
    #   git archive --format=tar --prefix=libfabric-2.6.0/ v2.6.0 | gzip -cn | sha256sum
    version(
        "2.6.0",
        sha256="16b3652f5f3ac59264443c768e79be5170efed82579d59db31be9a30649a0e5a",
        url="https://github.com/ofiwg/libfabric/archive/v2.6.0.tar.gz",
    )

    # The same: GitHub's archive of the tag v2.5.1 (commit 5b73bf2f...),
    #   git archive --format=tar --prefix=libfabric-2.5.1/ v2.5.1 | gzip -cn | sha256sum
    version(
        "2.5.1",
        sha256="ce5eef7cd794bfa235d857352f184281a7f0bb0c6c782b49e4431cabc6602111",
        url="https://github.com/ofiwg/libfabric/archive/v2.5.1.tar.gz",
    )

    # A git archive has no configure: Spack's autoreconf phase makes it
    # (`autoreconf -ivf`, what libfabric's autogen.sh runs)
    with when("@2.5.1,2.6.0"):
        depends_on("autoconf", type="build")
        depends_on("automake", type="build")
        depends_on("libtool", type="build")
        depends_on("m4", type="build")
