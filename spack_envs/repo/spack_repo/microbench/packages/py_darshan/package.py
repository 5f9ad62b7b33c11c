# The builtin py-darshan recipe, plus PyDarshan 3.5.0 (the common pin since
# issue 43), which it does not declare (its newest is 3.4.7.0).
from spack_repo.builtin.packages.py_darshan.package import PyDarshan as BuiltinPyDarshan

from spack.package import *


class PyDarshan(BuiltinPyDarshan):
    # PyDarshan is the folder darshan-util/pydarshan of Darshan's tree; at
    # the tag 3.5.0 its __version__ is "3.5.0" (not 3.5.0.0) and its
    # __darshanutil_version__ "3.5.0".  PyPI's sdist cannot be made again
    # from a clone; GitHub's archive of the tag can (the archive of
    # darshan-util 3.5.0, the same sha256):
    #   git archive --format=tar --prefix=darshan-3.5.0/ 3.5.0 | gzip -cn | sha256sum
    version(
        "3.5.0",
        sha256="76eac5a3ff556476ef8df53aa61851756bf6dcab59f5b92bb307abfdcbcd7f36",
        url="https://github.com/darshan-hpc/darshan/archive/refs/tags/3.5.0.tar.gz",
    )
    # As the builtin does for 3.4.0 to 3.4.7: the darshan-util of the same
    # first three parts
    depends_on("darshan-util@3.5.0", when="@3.5.0", type=("build", "run"))

    # pip installs from the folder of pyproject.toml and setup.py
    @property
    def build_directory(self):
        if self.spec.satisfies("@3.5.0"):
            return join_path(self.stage.source_path, "darshan-util", "pydarshan")
        return self.stage.source_path
