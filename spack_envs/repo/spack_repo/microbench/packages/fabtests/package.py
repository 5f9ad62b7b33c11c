# The builtin fabtests recipe, plus fabtests 1.10.1 (the version of the
# "Keeping It Real" study, paper-2020), which the builtin does not declare.
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

    # A git checkout has no configure: autoreconf generates it in fabtests/
    with when("@1.10.1"):
        depends_on("autoconf", type="build")
        depends_on("automake", type="build")
        depends_on("libtool", type="build")
        depends_on("m4", type="build")

    @property
    def configure_directory(self):
        if self.spec.satisfies("@1.10.1"):
            return join_path(self.stage.source_path, "fabtests")
        return self.stage.source_path
