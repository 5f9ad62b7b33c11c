# The builtin fabtests recipe, plus fabtests 1.10.1 (the version of the
# "Keeping It Real" study, paper-2020), 2.6.0 (the common pin since issue 43)
# and 2.5.1, which the builtin does not declare (its newest is 1.21.0).
# Both are the fabtests/ folder of libfabric's source tree.
from spack_repo.builtin.packages.fabtests.package import Fabtests as BuiltinFabtests

from spack.package import *


class Fabtests(BuiltinFabtests):
    # Where a version with a commit is fetched from.  Spack 1.0.2 fetches a
    # version that names a commit only from a package-level `git` (a `git=`
    # of version() alone fails: "Package has no 'git' attribute"); the other
    # versions name a sha256 and still come from their release tarballs.
    git = "https://github.com/ofiwg/libfabric.git"

    # The release tarball (fabtests-1.10.1.tar.bz2 of libfabric's GitHub
    # release v1.10.1) cannot be checksummed here.  fabtests is the fabtests/
    # folder of libfabric's repository: the tag v1.10.1 (tag object
    # 6bb56059ccca8f1b81fe2bd69014ce960583432a) points at this commit.
    version("1.10.1", tag="v1.10.1", commit="f62ffe4a587eddc3a579a52306f6a3c5e21dd503")
    depends_on("libfabric@1.10.1", when="@1.10.1")

    # fabtests 2.6.0: GitHub's archive of libfabric's tag v2.6.0 (commit
    # d1eb5e99...), the archive the project's libfabric 2.6.0 is built from
    # (the same sha256).  The release tarball (fabtests-2.6.0.tar.bz2, with
    # a generated configure) cannot be made again from a clone; the archive
    # can, in a clone of github.com/ofiwg/libfabric:
    #   git archive --format=tar --prefix=libfabric-2.6.0/ v2.6.0 | gzip -cn | sha256sum
    version(
        "2.6.0",
        sha256="16b3652f5f3ac59264443c768e79be5170efed82579d59db31be9a30649a0e5a",
        url="https://github.com/ofiwg/libfabric/archive/v2.6.0.tar.gz",
    )
    depends_on("libfabric@2.6.0", when="@2.6.0")

    # fabtests 2.5.1, the release before (the tests' planted bisection moves
    # libfabric and fabtests from 2.5.1 to 2.6.0): the archive of libfabric's
    # tag v2.5.1 (commit 5b73bf2f...), as the project's libfabric 2.5.1
    version(
        "2.5.1",
        sha256="ce5eef7cd794bfa235d857352f184281a7f0bb0c6c782b49e4431cabc6602111",
        url="https://github.com/ofiwg/libfabric/archive/v2.5.1.tar.gz",
    )
    depends_on("libfabric@2.5.1", when="@2.5.1")

    # A libfabric tree has no configure in fabtests/: fabtests' autogen.sh
    # makes it (below).  Every fabtests 2.x declared here, or in a repository
    # built on this one, is such a tree (the builtin declares up to 1.21.0).
    with when("@1.10.1,2:"):
        depends_on("autoconf", type="build")
        depends_on("automake", type="build")
        depends_on("libtool", type="build")
        depends_on("m4", type="build")

    @property
    def configure_directory(self):
        if self.spec.satisfies("@1.10.1,2:"):
            return join_path(self.stage.source_path, "fabtests")
        return self.stage.source_path

    # fabtests' own autogen.sh: it first makes config/, the AC_CONFIG_AUX_DIR
    # that `autoreconf -ivf` (Spack's default autoreconf) fails without
    @when("@1.10.1,2:")
    def autoreconf(self, spec, prefix):
        with working_dir(self.configure_directory):
            Executable("./autogen.sh")()
