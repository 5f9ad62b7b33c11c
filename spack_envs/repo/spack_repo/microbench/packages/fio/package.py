# The builtin fio recipe, plus fio 3.20 (the version of the "Keeping It Real"
# study, paper-2020) and the upstream patch that lets 3.19 and 3.20 build
# against Linux headers >= 5.14; and fio 3.40, the first whose uncached=1 is
# RWF_DONTCACHE (fio_cache_flags' dontcache variant), and fio 3.42, the
# common pin, which the builtin recipe of the pinned spack-packages (and of
# its later branch) lacks.
from spack_repo.builtin.packages.fio.package import Fio as BuiltinFio

from spack.package import *


class Fio(BuiltinFio):
    # GitHub's archive of the tag fio-3.20 (the builtin url pattern,
    # github.com/axboe/fio/archive/fio-3.20.tar.gz).  Reproduced offline as
    #   git archive --format=tar --prefix=fio-fio-3.20/ fio-3.20 | gzip -cn | sha256sum
    # in a clone of github.com/axboe/fio; the same command gives exactly the
    # builtin sha256 of 3.19 (809963b1...) and of 3.33 (f48b2547...).
    version("3.20", sha256="db18296adf96fc156846b7d125c0ec82ed97195448954f58a6048982be85765b")

    # The same: GitHub's archive of the tag fio-3.40 (commit ff930c46...),
    #   git archive --format=tar --prefix=fio-fio-3.40/ fio-3.40 | gzip -cn | sha256sum
    # the command that gives the builtin sha256 of 3.33 and 3.37 exactly.
    # Built for real from that archive (/opt/fio-3.40 on the development VM).
    version("3.40", sha256="9fc81e3a490a53fe821d76dd759d64f229d0ac6b4d2c711837bcad158242e3b2")

    # fio 3.42, the newest tag of github.com/axboe/fio here (commit
    # 9df6bc39..., 2026-04-06), the common pin since issue 43; made the same
    # way, from the tag fio-3.42 of the clone:
    #   git archive --format=tar --prefix=fio-fio-3.42/ fio-3.42 | gzip -cn | sha256sum
    version("3.42", sha256="56b03497a918d07692257890fd759bf73168ad79df5be78a2bcbbdc8ce67895b")

    # Upstream commit 382975557e632efb506836bc1709789e615c9094 ("fio: remove
    # raw device support", first released in fio-3.28): Linux 5.14 removed
    # <linux/raw.h>, which fio up to 3.27 includes.  The file is
    #   git format-patch -1 --full-index --stdout 382975557e63...
    # of github.com/axboe/fio (tests/spack/test_spack_repo.py checks it where a
    # clone is at hand); it applies to 3.19 and 3.20 with fuzz in fio.1 only.
    patch("fio-remove-raw-device-support.patch", when="@3.19:3.20")
