# The builtin darshan-runtime recipe, plus Darshan 3.5.0 (the common pin
# since issue 43), which it does not declare (its newest release is 3.4.7).
from spack_repo.builtin.packages.darshan_runtime.package import DarshanRuntime as BuiltinDarshanRuntime

from spack.package import *


class DarshanRuntime(BuiltinDarshanRuntime):
    # The archive of darshan-util 3.5.0 (the same sha256): GitHub's archive
    # of the tag 3.5.0 of github.com/darshan-hpc/darshan, made again with
    #   git archive --format=tar --prefix=darshan-3.5.0/ 3.5.0 | gzip -cn | sha256sum
    # The builtin's autotools dependencies (@3.4.0:) make darshan-runtime/'s
    # configure.
    version(
        "3.5.0",
        sha256="76eac5a3ff556476ef8df53aa61851756bf6dcab59f5b92bb307abfdcbcd7f36",
        url="https://github.com/darshan-hpc/darshan/archive/refs/tags/3.5.0.tar.gz",
    )
